using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;
using static Exchange.Core.Memory.LinuxMemory;

namespace Exchange.Core.Storage;

/// <summary>
/// Linux: a shared file mapping that grows in place. A large range of address space is reserved once (no memory, no
/// file behind it); each growth maps only the new part of the file over the reservation (MAP_FIXED), right after what
/// is already mapped. Nothing mapped is ever unmapped while the file grows, so growing costs a page-table entry per
/// new page, where unmapping and remapping the whole file tore down every page already written (tens of
/// milliseconds on a journal of some tens of MiB, on the order path).
/// </summary>
/// <remarks>
/// Single-threaded, owned by <see cref="AppendMappedFile"/>. The reservation's size is the owner's choice (the journal
/// takes more than a session store): address space is plentiful (128 TiB) but not endless, so thousands of session
/// files must still fit. A finalizer releases a reservation whose owner was never disposed.
/// </remarks>
internal sealed unsafe class ReservedFileMapping : IDisposable
{
    private static readonly long PageSize = Environment.SystemPageSize;

    private readonly SafeFileHandle _file;
    private readonly long _reserved;

    /// <summary>End of the mapped file pages (page-aligned): where the next growth maps from.</summary>
    private long _mappedPages;

    private ReservedFileMapping(SafeFileHandle file, long reserved, byte* reservation)
    {
        _file = file;
        _reserved = reserved;
        Base = reservation;
    }

    ~ReservedFileMapping() => Release();

    /// <summary>True where this mapping can be used (64-bit Linux; its flag values are Linux's).</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() && Environment.Is64BitProcess;

    /// <summary>
    /// Reserves <paramref name="reserveBytes"/> of address space for <paramref name="file"/>; null when this system
    /// cannot (not <see cref="IsSupported"/>, or the address space is exhausted), and the caller maps another way.
    /// </summary>
    public static ReservedFileMapping? TryCreate(SafeFileHandle file, long reserveBytes)
    {
        if (!IsSupported || reserveBytes <= 0)
        {
            return null;
        }

        long reserved = RoundUpToPage(reserveBytes);
        nint address = Mmap(null, (nuint)reserved, ProtNone, MapPrivate | MapAnonymous | MapNoReserve, -1, 0);
        return address == -1 ? null : new ReservedFileMapping(file, reserved, (byte*)address);
    }

    public byte* Base { get; private set; }

    /// <summary>
    /// Maps the file up to <paramref name="length"/> bytes, which the file must already have. Only the pages past those
    /// mapped before are mapped. False when the reservation is too small; the caller then maps another way.
    /// </summary>
    public bool TryGrow(long length)
    {
        long end = RoundUpToPage(length);
        if (end > _reserved)
        {
            return false;
        }

        if (end > _mappedPages)
        {
            bool added = false;
            _file.DangerousAddRef(ref added);
            try
            {
                MMap(Base + _mappedPages, end - _mappedPages, ProtReadWrite, MapShared | MapFixed, (int)_file.DangerousGetHandle(), _mappedPages, "map the file");
            }
            finally
            {
                if (added)
                {
                    _file.DangerousRelease();
                }
            }

            _mappedPages = end;
        }

        return true;
    }

    /// <summary>Drops every file page (before the file is truncated); the reservation stays.</summary>
    public void Clear()
    {
        if (_mappedPages > 0)
        {
            MMap(Base, _mappedPages, ProtNone, MapPrivate | MapAnonymous | MapNoReserve | MapFixed, -1, 0, "release the file pages");
            _mappedPages = 0;
        }
    }

    public void Dispose()
    {
        Release();
        GC.SuppressFinalize(this);
    }

    private void Release()
    {
        if (Base != null)
        {
            _ = Munmap(Base, (nuint)_reserved);
            Base = null;
            _mappedPages = 0;
        }
    }

    private static long RoundUpToPage(long bytes) => (bytes + PageSize - 1) / PageSize * PageSize;

    private static nint MMap(void* address, long length, int protection, int flags, int fd, long offset, string what)
    {
        nint result = Mmap(address, (nuint)length, protection, flags, fd, (nint)offset);
        if (result == -1)
        {
            throw new IOException($"mmap failed to {what} ({length} bytes): errno {Marshal.GetLastPInvokeError()}.");
        }

        return result;
    }
}
