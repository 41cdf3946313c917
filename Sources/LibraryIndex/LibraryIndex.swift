// LibraryIndex
