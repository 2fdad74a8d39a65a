import CloudSeedTestSupport
import Foundation
import Testing

@Suite struct InspectCommandTests {
    @Test func listsContainersZonesTypesAndCounts() throws {
        let folder = try TemporaryFolder()
        _ = try CommandRunner.run(["import", Repository.sample("ToDoItems/ToDoItems.plist")], in: folder.url)
        _ = try CommandRunner.run(
            ["import", Repository.sample("Person/Person.plist"), "--database", "private", "--user", "_juan"],
            in: folder.url)
        let text = try CommandRunner.run(["inspect"], in: folder.url)
        #expect(
            text.standardOutput == """
                iCloud.com.example.cloudseed development
                  record types:
                    Person
                      name STRING
                    ToDoItem
                      dueDate     TIMESTAMP
                      isCompleted INT64
                      title       STRING
                  private database, zone _defaultZone (owner _juan):
                    Person: 1 records
                  public database, zone _defaultZone (owner __defaultOwner__):
                    ToDoItem: 3 records

                """)
        let json = try CommandRunner.run(["inspect", "--json"], in: folder.url)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let containers = try #require(object["containers"] as? [[String: Any]])
        #expect(containers.map { $0["identifier"] as? String } == ["iCloud.com.example.cloudseed"])
    }

    @Test func exportsThePersonWithItsWellKnownName() throws {
        let folder = try TemporaryFolder()
        _ = try CommandRunner.run(["import", Repository.sample("Person/Person.plist")], in: folder.url)
        let export = try CommandRunner.run(["export", "--format", "jsonl", "--type", "Person"], in: folder.url)
        #expect(
            export.standardOutput.hasPrefix(
                #"{"recordName":"lastPerson","recordType":"Person","recordChangeTag":"1","fields":{"name":{"value":"Juan Chavez","type":"STRING"}},"#
            ))
    }
}
