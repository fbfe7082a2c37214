using System.Runtime.InteropServices;

namespace Exchange.Core.Storage;

/// <summary>
/// Forces a directory's entries (a file just created, or renamed into it) to stable storage.
/// </summary>
/// <remarks>
/// Why: fsync on a file makes its contents durable, not its name. After a power loss a file created or renamed since
/// its directory was last written back may be missing or still have its old contents, journal and session store
/// included, however often the file itself was synced. POSIX: fsync the directory. On Linux it is done here; on
/// Windows, NTFS journals the rename and creation as metadata, and there is no portable way to flush a directory, so it
/// does nothing there.
/// </remarks>
public static partial class DirectorySync
{
    private const int ReadOnly = 0;
    private const int DirectoryFlag = 0x10000; // O_DIRECTORY on x86-64 and arm64
    private const int CloseOnExec = 0x80000;

    /// <summary>Syncs the directory that holds <paramref name="filePath"/>; an error becomes an <see cref="IOException"/>.</summary>
    public static void SyncParentOf(string filePath)
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        string directory = Path.GetDirectoryName(Path.GetFullPath(filePath)) ?? "/";
        int fd = Open(directory, ReadOnly | DirectoryFlag | CloseOnExec);
        if (fd < 0)
        {
            throw new IOException($"Could not open directory '{directory}' to sync it (errno {Marshal.GetLastPInvokeError()}).");
        }

        try
        {
            if (Fsync(fd) != 0)
            {
                throw new IOException($"Could not sync directory '{directory}' (errno {Marshal.GetLastPInvokeError()}).");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int Close(int fd);
}
