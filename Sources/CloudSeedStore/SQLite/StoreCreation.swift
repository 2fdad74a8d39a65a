import CloudSeedCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store file being created: built under a hidden name next to where it goes (`.NAME.new`),
/// where no other connection can see it, and put in place whole by ``publish()``.
///
/// The first transaction of a new store is usually its biggest (a first import), and nothing needs
/// a write-ahead log while no one else can read the file: written with a rollback journal, which
/// holds nothing for pages a new file did not have, its rows go to disk once rather than to the log
/// and again when the log is copied back. The file is in WAL mode
/// from when it is published. Runs that create the same store at once take turns through a lock
/// file (`.NAME.new.lock`): the next one finds the store in place and opens it as any other.
package final class StoreCreation {
    /// Where the store goes.
    package let path: String
    /// Where it is built until then.
    package let sidePath: String
    private let lockPath: String
    private var lock: Int32

    private init(path: String, sidePath: String, lockPath: String, lock: Int32) {
        self.path = path
        self.sidePath = sidePath
        self.lockPath = lockPath
        self.lock = lock
    }

    /// Starts creating the store at `path`, waiting while another run creates it; `nil` when there
    /// is a file there (now, or once the other run is done), for a store in memory, or where the
    /// lock file cannot be made (the store is then opened in place, which reports what is wrong).
    /// Refused while another store object of this process is creating the same file: it would wait
    /// for itself.
    package static func begin(_ path: String) throws -> StoreCreation? {
        guard path != ":memory:", !path.isEmpty, !FileManager.default.fileExists(atPath: path) else { return nil }
        let url = URL(fileURLWithPath: path)
        let hidden = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".new").path
        let lockPath = hidden + ".lock"
        guard claimInProcess(lockPath) else {
            throw CloudSeedError(
                .storeFailure,
                "another store object of this program is creating this store and has not written to it yet; write through that one, or let it go first",
                at: SourcePosition(file: path))
        }
        while true {
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard lock >= 0 else {
                releaseInProcess(lockPath)
                return nil
            }
            while flock(lock, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(lock)
                    releaseInProcess(lockPath)
                    return nil
                }
            }
            // The run that held the lock removes its file before letting go: lock the file there now.
            guard isFile(lockPath, sameAs: lock) else {
                close(lock)
                continue
            }
            let creation = StoreCreation(path: path, sidePath: hidden, lockPath: lockPath, lock: lock)
            if FileManager.default.fileExists(atPath: path) {
                creation.end()
                return nil
            }
            creation.removeSideFiles()  // left by a run that was killed while creating the store
            return creation
        }
    }

    /// Puts the store built at ``sidePath`` in place, whose connections must be closed, and lets
    /// the next run that creates it go on. Refused if a file appeared at ``path`` meanwhile (a program
    /// that does not take the lock): that file is left as it is, the new store is dropped.
    package func publish() throws {
        defer { end() }
        if link(sidePath, path) == 0 {
            unlink(sidePath)
            return
        }
        var failure = errno
        // A file system without hard links: moved instead, which the lock keeps other runs from racing.
        if failure != EEXIST, !FileManager.default.fileExists(atPath: path) {
            if rename(sidePath, path) == 0 { return }
            failure = errno
        }
        removeSideFiles()
        guard failure == EEXIST || FileManager.default.fileExists(atPath: path) else {
            throw CloudSeedError(
                .fileAccess,
                "cannot put the new store in place (\(String(cString: strerror(failure)))), so nothing was written; check the folder and its permissions",
                at: SourcePosition(file: path))
        }
        throw CloudSeedError(
            .storeFailure,
            "another program created this file while cloudseed was creating the store, so nothing was written to it; run again to write into that file, or name another with \(option: .store)",
            at: SourcePosition(file: path))
    }

    /// Drops the store being built, whose connections must be closed.
    package func abandon() {
        removeSideFiles()
        end()
    }

    private func removeSideFiles() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(sidePath + suffix) }
    }

    /// Removes the lock file and lets go of it, once.
    private func end() {
        guard lock >= 0 else { return }
        unlink(lockPath)
        close(lock)
        lock = -1
        Self.releaseInProcess(lockPath)
    }

    /// The lock files of the stores this process is creating.
    nonisolated(unsafe) private static var creatingHere: Set<String> = []
    private static let creatingHereLock = NSLock()

    private static func claimInProcess(_ lockPath: String) -> Bool {
        creatingHereLock.lock()
        defer { creatingHereLock.unlock() }
        return creatingHere.insert(lockPath).inserted
    }

    private static func releaseInProcess(_ lockPath: String) {
        creatingHereLock.lock()
        defer { creatingHereLock.unlock() }
        creatingHere.remove(lockPath)
    }

    deinit { end() }

    private static func isFile(_ path: String, sameAs descriptor: Int32) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}
