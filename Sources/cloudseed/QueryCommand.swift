import ArgumentParser
import CloudSeed
import Foundation

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Query records of one type, as CloudKit does: only on indexed fields.",
        discussion: """
            Comparators: = != < <= > >= BEGINSWITH IN NEAR, and for LIST fields CONTAINS CONTAINSANY \
            CONTAINSALL MEMBERBEGINSWITH; NOT before one negates it ('tags NOT CONTAINS oil'). IN and \
            CONTAINSANY/CONTAINSALL take values separated by commas. Equality needs a QUERYABLE field, \
            ranges and sorting a SORTABLE one, --search a SEARCHABLE one; a query without filters needs \
            "___recordID" QUERYABLE.

            Examples:
              cloudseed query Artwork --filter 'price > 100' --sort title
              cloudseed query Artwork --filter 'location NEAR 39.3,-123.8,5000'
              cloudseed query Artwork --search harbor --format jsonl
            """
    )

    enum Format: String, ExpressibleByArgument { case table, jsonl, csv }

    @Argument(help: "The record type.")
    var type: String

    @Option(name: .customLong("filter"), help: ArgumentHelp("A filter, as 'price > 100'.", valueName: "FIELD OP VALUE"))
    var filters: [String] = []

    @Option(help: "The field to sort by.")
    var sort: String?

    @Flag(help: "Sort in descending order.")
    var descending = false

    @Option(help: "Words a SEARCHABLE field must contain.")
    var search: String?

    @Flag(help: "With --search, find records that contain any of the words rather than all.")
    var anyWord = false

    @Option(help: "At most this many records.")
    var limit: Int?

    @Option(help: "table, jsonl or csv.")
    var format: Format = .table

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try reportingErrors(writes: false) {
            var query = RecordQuery(
                recordType: type, filters: try filters.map(QueryFilter.init(parsing:)),
                sort: sort.map { [QuerySort($0, ascending: !descending)] } ?? [], search: search, limit: limit)
            query.user = storeOptions.user
            query.searchesAnyWord = anyWord
            let records = try storeOptions.openStore(mustExist: true).query(query, in: storeOptions.scope)
            switch format {
            case .jsonl:
                var writer = RecordWriter(format: .jsonl) { print($0, terminator: "") }
                for record in records { writer.append(record) }
            case .table: print(RecordTable.text(records), terminator: "")
            case .csv: print(RecordTable.csv(records), terminator: "")
            }
        }
    }
}
