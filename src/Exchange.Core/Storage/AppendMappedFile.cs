using System.IO.MemoryMappedFiles;

namespace Exchange.Core.Storage;

/// <summary>
/// An append-only file written through a memory map that is extended (sparsely) a chunk ahead of its content, so the
/// writer copies into the page cache instead of making a system call per record. The unused tail reads as zeros; the
/// owner's reader must treat zeros as the end, and <see cref="Close"/> trims the tail.
/// </summary>
/// <remarks>
/// <para>Shared by the venue's journal and the FIX session file store, which share no other assembly.</para>
/// <para>Durability: a copy into the map survives a process crash (the page belongs to the kernel); <see cref="Sync"/>
/// makes it survive a power loss. Linux writes back pages dirtied through a shared map on fsync; Windows needs the view
/// flushed first, which <see cref="Sync"/> does.</para>
/// <para>Single-threaded. <see cref="Base"/> changes whenever the map grows or is reset: never keep a pointer or span
/// into it across <see cref="EnsureMapped"/> or <see cref="Reset"/>. Allocation: a mapping object per chunk.</para>
/// </remarks>
public sealed unsafe class AppendMappedFile : IDisposable
{
    private readonly FileStream _file;
    private readonly long _chunkBytes;
    private MemoryMappedFile? _map;
    private MemoryMappedViewAccessor? _view;

    /// <param name="file">Opened read-write, unbuffered; owned from now on.</param>
    /// <param name="contentLength">Bytes of valid content at the start of the file (anything after it is dropped).</param>
    /// <param name="chunkBytes">How far ahead of the content the file is extended and mapped at a time.</param>
    public AppendMappedFile(FileStream file, long contentLength, long chunkBytes)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentOutOfRangeException.ThrowIfLessThan(chunkBytes, 1);
        _file = file;
        _chunkBytes = chunkBytes;
        if (file.Length != contentLength)
        {
            file.SetLength(contentLength);
            file.Flush(flushToDisk: true);
        }

        Map(contentLength + chunkBytes);
    }

    /// <summary>The first byte of the file in memory.</summary>
    public byte* Base { get; private set; }

    /// <summary>Bytes mapped from <see cref="Base"/>.</summary>
    public long MappedLength { get; private set; }

    /// <summary>Makes the first <paramref name="length"/> bytes writable, extending the file and remapping when needed.</summary>
    public void EnsureMapped(long length)
    {
        if (length > MappedLength)
        {
            Map(length + _chunkBytes);
        }
    }

    /// <summary>Drops all content (the file becomes empty, then one zero chunk).</summary>
    public void Reset(bool sync)
    {
        Unmap();
        _file.SetLength(0);
        if (sync)
        {
            _file.Flush(flushToDisk: true);
        }

        Map(_chunkBytes);
    }

    /// <summary>Forces everything written so far to stable storage.</summary>
    public void Sync()
    {
        if (OperatingSystem.IsWindows())
        {
            _view?.Flush();
        }

        _file.Flush(flushToDisk: true);
    }

    /// <summary>Unmaps, trims the file to <paramref name="contentLength"/> and closes it (syncing first when asked).</summary>
    public void Close(long contentLength, bool sync)
    {
        if (sync && OperatingSystem.IsWindows())
        {
            _view?.Flush();
        }

        // Pages dirtied through the map stay in the page cache after unmapping; the fsync below writes them.
        Unmap();
        _file.SetLength(contentLength);
        if (sync)
        {
            _file.Flush(flushToDisk: true);
        }

        _file.Dispose();
    }

    /// <summary>Unmaps and closes without trimming (the zero tail stays, as after a crash).</summary>
    public void Dispose()
    {
        Unmap();
        _file.Dispose();
    }

    private void Map(long length)
    {
        Unmap();
        _file.SetLength(length);
        _map = MemoryMappedFile.CreateFromFile(_file, mapName: null, length, MemoryMappedFileAccess.ReadWrite, HandleInheritability.None, leaveOpen: true);
        _view = _map.CreateViewAccessor(0, length, MemoryMappedFileAccess.ReadWrite);
        byte* pointer = null;
        _view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
        Base = pointer + _view.PointerOffset;
        MappedLength = length;
    }

    private void Unmap()
    {
        if (_view is null)
        {
            return;
        }

        _view.SafeMemoryMappedViewHandle.ReleasePointer();
        _view.Dispose();
        _map!.Dispose();
        _view = null;
        _map = null;
        Base = null;
        MappedLength = 0;
    }
}
