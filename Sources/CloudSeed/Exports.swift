// The library's users import `CloudSeed` alone: the records, values and errors it speaks come with it.
@_exported public import CloudSeedAppModel
@_exported public import CloudSeedCore
@_exported public import CloudSeedReaders
@_exported public import CloudSeedSchema
@_exported public import CloudSeedStore
