using System.Diagnostics;
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
/// <para>Growing: on Linux the file is mapped into one reserved address range and each chunk is mapped after the last
/// (<see cref="ReservedFileMapping"/>), so growth never unmaps what was written; elsewhere the whole file is remapped.
/// Unmapping a file with many written pages took tens of milliseconds, a stall every chunk on the order path.</para>
/// <para>Single-threaded. <see cref="Base"/> may change whenever the map grows or is reset: never keep a pointer or
/// span into it across <see cref="EnsureMapped"/>. Allocation: on Linux none after
/// construction; elsewhere a mapping object per chunk.</para>
/// </remarks>
public sealed unsafe class AppendMappedFile : IDisposable
{
    private static readonly long PageSize = Environment.SystemPageSize;

    /// <summary>
    /// How long a prepared page is trusted (<see cref="PrepareAhead"/>): the kernel's writeback also makes dirty pages
    /// read-only again, by default once they have been dirty for 30 s.
    /// </summary>
    private static readonly long PreparedLifetimeTicks = 5 * Stopwatch.Frequency;

    private readonly FileStream _file;
    private readonly long _chunkBytes;

    /// <summary>
    /// File offset up to which the pages are known writable without a page fault, in the mapping at
    /// <see cref="_preparedBase"/>, since <see cref="_preparedAt"/>: written since the last <see cref="Sync"/> by
    /// <see cref="PrepareAhead"/>. Page-aligned, or 0 when nothing is known.
    /// </summary>
    private long _preparedEnd;
    private byte* _preparedBase;
    private long _preparedAt;
    private int _readyChecks;
    private MemoryMappedFile? _map;
    private MemoryMappedViewAccessor? _view;

    /// <summary>Linux: the file mapped into one reserved range that grows in place; null elsewhere (or when it ran out).</summary>
    private ReservedFileMapping? _reserved;

    /// <param name="file">Opened read-write, unbuffered; owned from now on.</param>
    /// <param name="contentLength">Bytes of valid content at the start of the file (anything after it is dropped).</param>
    /// <param name="chunkBytes">How far ahead of the content the file is extended and mapped at a time.</param>
    /// <param name="reserveBytes">
    /// Linux: address space reserved for the file to grow into in place (<see cref="ReservedFileMapping"/>); past it, or
    /// where it cannot be reserved, the whole file is remapped per chunk instead.
    /// </param>
    public AppendMappedFile(FileStream file, long contentLength, long chunkBytes, long reserveBytes = DefaultReserveBytes)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentOutOfRangeException.ThrowIfLessThan(chunkBytes, 1);
        _file = file;
        _chunkBytes = chunkBytes;
        _reserved = ReservedFileMapping.TryCreate(file.SafeFileHandle, reserveBytes);
        try
        {
            if (file.Length != contentLength)
            {
                file.SetLength(contentLength);
                file.Flush(flushToDisk: true);
            }

            Map(contentLength + chunkBytes);
        }
        catch
        {
            ReleaseMapping();
            throw;
        }
    }

    /// <summary>16 GiB of address space per file: room for thousands of files in a process, and a session store's growth.</summary>
    public const long DefaultReserveBytes = 16L << 30;

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

    /// <summary>
    /// True when <see cref="PrepareAhead"/> would have work to do: the pages from <paramref name="contentEnd"/> to
    /// <paramref name="contentEnd"/> + <paramref name="bytes"/> were not prepared, or the preparation has lapsed (see
    /// its remarks). A lapse found here is forgotten here; that write only ever forgets a preparation, so a thread
    /// other than the writer may call this without the writer's lock and get a hint (<see cref="PrepareAhead"/> itself
    /// needs the writer's thread or lock).
    /// </summary>
    public bool NeedsPreparing(long contentEnd, long bytes)
    {
        if (contentEnd + bytes > _preparedEnd || Base != _preparedBase)
        {
            return true;
        }

        // The clock is read one call in 1,024: an idle polling thread asks millions of times a second.
        if ((++_readyChecks & 1023) != 0 || Stopwatch.GetTimestamp() - _preparedAt < PreparedLifetimeTicks)
        {
            return false;
        }

        _preparedEnd = 0;
        return true;
    }

    /// <summary>
    /// Makes the pages the next <paramref name="bytes"/> after <paramref name="contentEnd"/> (the owner's end of
    /// content) lie in writable now, so the owner's next record does not take the page fault of a first write (~15 µs
    /// under ext4 on the VM this was measured on) on the order path. Returns false, at the cost of a compare, when they
    /// already are. For the writer's thread, at a moment nothing waits on it.
    /// </summary>
    /// <remarks>
    /// A page is made writable by writing a zero to its first byte at or after <paramref name="contentEnd"/>: a byte
    /// that is zero already (the unused tail is zeros) and that no reader takes for content until the owner writes a
    /// record over it, on this same thread. A page becomes read-only again (for the kernel's dirty tracking) at each
    /// <see cref="Sync"/>, when the kernel writes it back on its own, and with a remap of the whole file, so a
    /// preparation lapses then: at <see cref="Sync"/>, after <see cref="PreparedLifetimeTicks"/>, and with the mapping.
    /// </remarks>
    public bool PrepareAhead(long contentEnd, long bytes)
    {
        if (!NeedsPreparing(contentEnd, bytes))
        {
            return false;
        }

        long end = contentEnd + bytes;
        EnsureMapped(end);
        long from = Base == _preparedBase ? Math.Max(_preparedEnd, contentEnd) : contentEnd;
        for (long at = from; at < end; at = PageStart(at) + PageSize)
        {
            Base[at] = 0;
        }

        _preparedEnd = PageStart(end - 1) + PageSize;
        _preparedBase = Base;
        _preparedAt = Stopwatch.GetTimestamp();
        return true;
    }

    private static long PageStart(long offset) => offset & ~(PageSize - 1);

    /// <summary>Forces everything written so far to stable storage.</summary>
    public void Sync()
    {
        _preparedEnd = 0;
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
        ReleaseMapping();
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
        ReleaseMapping();
        _file.Dispose();
    }

    private void Map(long length)
    {
        if (_reserved is not null)
        {
            // Grow in place: what is mapped stays mapped (see ReservedFileMapping).
            _file.SetLength(length);
            if (_reserved.TryGrow(length))
            {
                Base = _reserved.Base;
                MappedLength = length;
                return;
            }

            // Past the reservation: remap the whole file the portable way from now on.
            _reserved.Dispose();
            _reserved = null;
        }

        Unmap();
        _file.SetLength(length);
        _map = MemoryMappedFile.CreateFromFile(_file, mapName: null, length, MemoryMappedFileAccess.ReadWrite, HandleInheritability.None, leaveOpen: true);
        _view = _map.CreateViewAccessor(0, length, MemoryMappedFileAccess.ReadWrite);
        byte* pointer = null;
        _view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
        Base = pointer + _view.PointerOffset;
        MappedLength = length;
    }

    /// <summary>Unmaps and gives up the reservation too: the file is being closed.</summary>
    private void ReleaseMapping()
    {
        Unmap();
        _reserved?.Dispose();
        _reserved = null;
    }

    /// <summary>Releases every mapped page (the reservation, if any, stays for the next <see cref="Map"/>).</summary>
    private void Unmap()
    {
        _reserved?.Clear();
        Base = null;
        MappedLength = 0;
        if (_view is null)
        {
            return;
        }

        _view.SafeMemoryMappedViewHandle.ReleasePointer();
        _view.Dispose();
        _map!.Dispose();
        _view = null;
        _map = null;
    }
}
