// fs-native-extensions ships no types; these are the calls the data folder lock makes.
declare module 'fs-native-extensions' {
  /**
   * Locks the whole open file `fd` without waiting (exclusive unless `shared`); false while another
   * open file holds a conflicting lock. An open-file-description lock (F_OFD_SETLK) on Linux, flock
   * on macOS, LockFileEx on Windows: released when the file is closed or its process dies.
   */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
}
