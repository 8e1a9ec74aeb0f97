import CGtk

/// Gives the memory the process has freed back to the system (glibc's `malloc_trim`),
/// after work that allocates much and frees it: reading the people, channels and emoji,
/// and saving a draft that grew or shrank by a megabyte or more (a long paste, a long
/// draft sent). glibc returns an arena's free memory only from its top, so what such work
/// freed in any order stayed resident: 7 MB after the data was read, 53 MB after a 10 MB
/// paste (issue #35's memory goals).
///
/// Call it off the main thread: it walks every arena, holding each one's lock meanwhile.
nonisolated enum FreedMemory {
    static func giveBack() {
        malloc_trim(0)
    }
}
