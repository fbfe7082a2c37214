using Exchange.Core.Storage;
using Xunit;

namespace Exchange.Core.Tests.Storage;

public class DirectorySyncTests
{
    [Fact]
    public void Syncs_the_directory_of_an_existing_file()
    {
        string path = Path.Combine(Path.GetTempPath(), $"dirsync-{Guid.NewGuid():N}", "file.bin");
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        try
        {
            File.WriteAllBytes(path, [1, 2, 3]);
            DirectorySync.SyncParentOf(path);
            Assert.Equal([1, 2, 3], File.ReadAllBytes(path));
        }
        finally
        {
            Directory.Delete(Path.GetDirectoryName(path)!, recursive: true);
        }
    }

    [Fact]
    public void A_missing_directory_is_an_IOException_on_Linux()
    {
        if (!OperatingSystem.IsLinux())
        {
            return; // directories are synced on Linux only
        }

        string path = Path.Combine(Path.GetTempPath(), $"dirsync-missing-{Guid.NewGuid():N}", "file.bin");
        IOException error = Assert.Throws<IOException>(() => DirectorySync.SyncParentOf(path));
        Assert.Contains("dirsync-missing", error.Message);
    }
}
