using System.Numerics;
using System.Runtime.InteropServices;
using Exchange.Core.Memory;

namespace Exchange.Fix.Session;

/// <summary>
/// The most recent stored outbound messages, in one native ring of fixed size: records are appended one after another
/// and the oldest are overwritten once the ring is full. An index by sequence number (a power-of-two ring of entries)
/// finds them. A message is found while both its bytes and its index entry are still in their rings; older ones are
/// gone, and a ResendRequest for them is answered with a SequenceReset-GapFill, as for admin messages.
/// </summary>
/// <remarks>
/// <para>Why a fixed ring: every byte the log ever writes is memory it already owns, so after the first lap (or from the
/// start, with <see cref="PreFault"/>) appending never touches a fresh page. A fresh page costs a page fault, and on this
/// project's VM the host backs guest memory lazily: a first write to a page took 5-15 µs, and a log that grew by
/// 300 bytes per report spent over a quarter of the venue's polling thread in those faults at 250 K orders/s.</para>
/// <para>Why native memory: the GC never sees the messages, so a large log costs no GC work.</para>
/// <para>Single-threaded (the session's lock). Freed by <see cref="Dispose"/> or, failing that, the finalizer.</para>
/// </remarks>
internal sealed unsafe class OutboundMessageLog : IDisposable
{
    public const int DefaultCapacityBytes = 64 << 20;

    /// <summary>One index entry per this many bytes of ring: reports (about 300 bytes) are all indexed until they are overwritten.</summary>
    private const int BytesPerIndexEntry = 128;

    private readonly long _capacity;
    private readonly int _indexMask;
    private byte* _data;
    private Entry* _index;

    /// <summary>Bytes ever appended (a logical position; the ring offset is this modulo the capacity).</summary>
    private long _written;

    /// <summary>Records before this logical position are forgotten (<see cref="Clear"/>).</summary>
    private long _validFrom;

    /// <param name="capacityBytes">Size of the ring; a record larger than this is not stored (a resend gap-fills it).</param>
    public OutboundMessageLog(int capacityBytes = DefaultCapacityBytes)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacityBytes, PageToucher.PageSize);
        _capacity = capacityBytes;
        int entries = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(capacityBytes / BytesPerIndexEntry, 16));
        _indexMask = entries - 1;
        _data = (byte*)NativeMemory.Alloc((nuint)capacityBytes);
        _index = (Entry*)NativeMemory.AllocZeroed((nuint)entries, (nuint)sizeof(Entry));
    }

    ~OutboundMessageLog() => Free();

    /// <summary>
    /// Writes to every page of the ring and the index now, keeping what they hold, so that appending never page-faults
    /// (see the remarks). Writing a page costs what the first append into it would; meant for start-up, before any
    /// client is served.
    /// </summary>
    public void PreFault()
    {
        PageToucher.Touch(_data, _capacity);
        PageToucher.Touch(_index, (long)(_indexMask + 1) * sizeof(Entry));
    }

    public void Append(int seq, ReadOnlySpan<byte> msgType, long sendingTimeNanos, ReadOnlySpan<byte> body)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(seq, 1);
        ObjectDisposedException.ThrowIf(_data == null, this);
        int size = StoredMessageCodec.SizeOf(msgType, body);
        ref Entry entry = ref _index[seq & _indexMask];
        if (size > _capacity)
        {
            entry = default;
            return;
        }

        // A record never wraps around the end: it starts again at offset 0 and the bytes left at the end go unused.
        long offset = _written % _capacity;
        if (offset + size > _capacity)
        {
            _written += _capacity - offset;
            offset = 0;
        }

        StoredMessageCodec.Write(new Span<byte>(_data + offset, size), seq, msgType, sendingTimeNanos, body);
        entry.Position = _written;
        entry.Seq = seq;
        entry.Length = size;
        _written += size;
    }

    /// <remarks>The message's spans point into the ring: valid until the next <see cref="Append"/>.</remarks>
    public bool TryGet(int seq, out StoredMessage message)
    {
        message = default;
        if (seq < 1 || _data == null)
        {
            return false;
        }

        Entry entry = _index[seq & _indexMask];

        // Still in the ring: nothing has been written over its bytes since (a lap ago they would be).
        if (entry.Seq != seq || entry.Length == 0 || entry.Position < _validFrom || entry.Position < _written - _capacity)
        {
            return false;
        }

        return StoredMessageCodec.TryRead(new ReadOnlySpan<byte>(_data + (entry.Position % _capacity), entry.Length), out message);
    }

    /// <summary>
    /// Forgets every message (a sequence reset); the memory is kept for the messages that follow, which start a new lap
    /// at the ring's first byte, so as many as fit in the whole ring are kept.
    /// </summary>
    public void Clear()
    {
        _written = (_written + _capacity - 1) / _capacity * _capacity;
        _validFrom = _written;
    }

    public void Dispose()
    {
        Free();
        GC.SuppressFinalize(this);
    }

    private void Free()
    {
        NativeMemory.Free(_data);
        NativeMemory.Free(_index);
        _data = null;
        _index = null;
    }

    private struct Entry
    {
        public long Position;
        public int Seq;
        public int Length;
    }
}
