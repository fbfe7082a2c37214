using Exchange.Core.Storage;
using Xunit;

namespace Exchange.Core.Tests.Storage;

public sealed unsafe class AppendMappedFileTests : IDisposable
{
    private readonly string _path = Path.Combine(Path.GetTempPath(), "append-mapped-" + Guid.NewGuid().ToString("N"));

    public void Dispose() => File.Delete(_path);

    [Fact]
    public void Content_written_across_remaps_survives_and_close_trims_the_zero_tail()
    {
        var file = new AppendMappedFile(Open(), 0, chunkBytes: 4096);
        long length = 0;
        for (int i = 0; i < 3000; i++)
        {
            file.EnsureMapped(length + 7);
            new Span<byte>(file.Base + length, 7).Fill((byte)(i % 251 + 1));
            length += 7;
        }

        Assert.True(new FileInfo(_path).Length > length, "the file is extended ahead of the content");
        file.Close(length, sync: true);

        byte[] bytes = File.ReadAllBytes(_path);
        Assert.Equal(length, bytes.Length);
        for (int i = 0; i < 3000; i++)
        {
            Assert.True(bytes.AsSpan(i * 7, 7).IndexOfAnyExcept((byte)(i % 251 + 1)) < 0, $"record {i}");
        }
    }

    [Fact]
    public void Dispose_keeps_the_zero_tail_and_reopening_drops_what_follows_the_content()
    {
        using (var file = new AppendMappedFile(Open(), 0, chunkBytes: 4096))
        {
            new Span<byte>(file.Base, 3).Fill(9);
        }

        Assert.Equal(4096, new FileInfo(_path).Length);

        using (var reopened = new AppendMappedFile(Open(), 3, chunkBytes: 4096))
        {
            Assert.Equal(9, reopened.Base[2]);
            Assert.Equal(0, reopened.Base[3]);
        }
    }

    /// <summary>
    /// On Linux the file grows in place (one reserved range): the first bytes keep their address while chunk after
    /// chunk is added, which is what spares the order path a full unmap per chunk.
    /// </summary>
    [Fact]
    public void On_linux_growth_keeps_the_mapping_in_place_and_earlier_content_readable()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        using var file = new AppendMappedFile(Open(), 0, chunkBytes: 4096);
        byte* first = file.Base;
        file.Base[0] = 42;
        for (long length = 4096; length <= 64 * 4096; length += 4093)
        {
            file.EnsureMapped(length);
            Assert.True(file.Base == first, "the mapping moved");
            file.Base[length - 1] = 7;
        }

        Assert.Equal(42, file.Base[0]);
        Assert.Equal(7, file.Base[4096 - 1]);
    }

    /// <summary>
    /// Many files open at once (a venue with many file-backed sessions) must not exhaust the address space: each
    /// reserves a bounded range, and a file that cannot reserve one still works by remapping.
    /// </summary>
    [Fact]
    public void Thousands_of_files_can_be_open_at_once()
    {
        string directory = Path.Combine(Path.GetTempPath(), "append-mapped-many-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        var files = new List<AppendMappedFile>();
        try
        {
            for (int i = 0; i < 3000; i++)
            {
                var stream = new FileStream(Path.Combine(directory, i.ToString(System.Globalization.CultureInfo.InvariantCulture)), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
                var file = new AppendMappedFile(stream, 0, chunkBytes: 4096);
                files.Add(file);
                file.Base[0] = 1;
            }

            Assert.Equal(3000, files.Count);
        }
        finally
        {
            foreach (AppendMappedFile file in files)
            {
                file.Dispose();
            }

            Directory.Delete(directory, recursive: true);
        }
    }

    private FileStream Open() => new(_path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, bufferSize: 0);
}
