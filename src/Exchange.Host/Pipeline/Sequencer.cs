using System.Diagnostics;
using System.Numerics;

namespace Exchange.Host.Pipeline;

/// <summary>
/// The claim/publish half of a ring: hands out sequences to producers without overwriting slots a consumer has not
/// passed yet (wrap protection against the slowest gating sequence), and tells consumers which sequences are published.
/// </summary>
/// <remarks>
/// Single producer: <see cref="Cursor"/> is the highest published sequence; claims are tracked in a plain field only
/// the producer thread touches. Multi producer: <see cref="Cursor"/> is the highest claimed sequence (advanced by CAS),
/// and each slot has an availability flag holding the "lap" number of the sequence last published into it, so a
/// consumer can tell a published slot from one that is claimed but still being written, without any lock.
/// The mode is a readonly flag rather than two classes: the branch is perfectly predicted and keeps one type.
/// </remarks>
internal sealed class Sequencer
{
    private readonly bool _multiProducer;
    private readonly int _bufferSize;
    private readonly long _indexMask;
    private readonly int _indexShift;
    private readonly int[] _availability;
    private readonly Sequence _cursor = new();

    // The last known minimum of the gating sequences: refreshed only when a claim would otherwise wrap onto it.
    private readonly Sequence _gatingCache = new();
    private Sequence[] _gatingSequences = [];

    // Single producer only: the highest claimed sequence, touched by the producer thread alone.
    private long _claimed = Sequence.InitialValue;

    private volatile bool _aborted;

    public Sequencer(int bufferSize, ProducerMode mode)
    {
        if (bufferSize < 1 || !BitOperations.IsPow2(bufferSize))
        {
            throw new ArgumentOutOfRangeException(nameof(bufferSize), bufferSize, "Ring size must be a positive power of two.");
        }

        _bufferSize = bufferSize;
        _indexMask = bufferSize - 1;
        _indexShift = BitOperations.Log2((uint)bufferSize);
        _multiProducer = mode == ProducerMode.Multi;
        _availability = _multiProducer ? new int[bufferSize] : [];
        _availability.AsSpan().Fill(-1);
    }

    public int BufferSize => _bufferSize;

    public bool IsMultiProducer => _multiProducer;

    public Sequence Cursor => _cursor;

    public PublicationSignal Signal { get; } = new();

    /// <summary>
    /// Sets the consumer sequences producers must not lap. Call before producing; the array is not copied later, so
    /// gating cannot change while producers run.
    /// </summary>
    public void SetGatingSequences(Sequence[] sequences) => _gatingSequences = sequences;

    /// <summary>Slots published (or claimed, multi producer) but not yet passed by every gating consumer.</summary>
    public long Occupancy
    {
        get
        {
            long produced = _cursor.Value;
            return produced - Sequence.Minimum(_gatingSequences, produced);
        }
    }

    /// <summary>True once <see cref="Abort"/> was called.</summary>
    public bool IsAborted => _aborted;

    /// <summary>
    /// The ring's consumers are gone for good (one faulted and the venue is stopping): producers waiting for room give
    /// up (<see cref="ClaimUnlessAborted"/> returns false) instead of waiting for ever, and new claims fail the same way.
    /// </summary>
    public void Abort() => _aborted = true;

    /// <summary>
    /// Claims the next sequence, waiting (spin, then yield) while the ring is full; false, claiming nothing, once the
    /// ring is aborted.
    /// </summary>
    public bool ClaimUnlessAborted(out long sequence)
    {
        var spinner = default(SpinWait);
        while (!_aborted)
        {
            if (TryClaim(out sequence))
            {
                return true;
            }

            spinner.SpinOnce(sleep1Threshold: -1);
        }

        sequence = -1;
        return false;
    }

    /// <summary>Claims the next sequence, or returns false at once when the ring is full (a slow consumer).</summary>
    public bool TryClaim(out long sequence)
    {
        return _multiProducer ? TryClaimMulti(out sequence) : TryClaimSingle(out sequence);
    }

    /// <summary>Makes a claimed slot visible to consumers (release semantics: the slot's contents first).</summary>
    public void Publish(long sequence)
    {
        if (_multiProducer)
        {
            Volatile.Write(ref _availability[(int)(sequence & _indexMask)], (int)(sequence >> _indexShift));
        }
        else
        {
            _cursor.SetValue(sequence);
        }

        Signal.NotifyIfWaiting();
    }

    /// <summary>True when <paramref name="sequence"/> has been published.</summary>
    public bool IsPublished(long sequence)
    {
        if (_multiProducer)
        {
            return Volatile.Read(ref _availability[(int)(sequence & _indexMask)]) == (int)(sequence >> _indexShift);
        }

        return _cursor.Value >= sequence;
    }

    /// <summary>
    /// The highest sequence such that every sequence from <paramref name="lowerBound"/> up to it is published, looking no
    /// further than <paramref name="upperBound"/>; <paramref name="lowerBound"/> - 1 when <paramref name="lowerBound"/>
    /// itself is not published yet.
    /// </summary>
    public long HighestPublished(long lowerBound, long upperBound)
    {
        if (!_multiProducer)
        {
            return Math.Min(upperBound, _cursor.Value);
        }

        for (long sequence = lowerBound; sequence <= upperBound; sequence++)
        {
            if (!IsPublished(sequence))
            {
                return sequence - 1;
            }
        }

        return upperBound;
    }

    private bool TryClaimSingle(out long sequence)
    {
        long next = _claimed + 1;
        if (!HasCapacityFor(next, _claimed))
        {
            sequence = Sequence.InitialValue;
            return false;
        }

        _claimed = next;
        sequence = next;
        return true;
    }

    private bool TryClaimMulti(out long sequence)
    {
        while (true)
        {
            long current = _cursor.Value;
            long next = current + 1;
            if (!HasCapacityFor(next, current))
            {
                sequence = Sequence.InitialValue;
                return false;
            }

            if (_cursor.CompareAndSet(current, next))
            {
                sequence = next;
                return true;
            }
        }
    }

    // Slot `next` reuses the slot of `next - bufferSize`: every gating consumer must have passed that one.
    private bool HasCapacityFor(long next, long current)
    {
        long wrapPoint = next - _bufferSize;
        long cachedGating = _gatingCache.Value;
        if (wrapPoint <= cachedGating && cachedGating <= current)
        {
            return true;
        }

        long gating = Sequence.Minimum(_gatingSequences, current);
        _gatingCache.SetValue(gating);
        Debug.Assert(gating <= current, "A consumer ran ahead of the producers.");
        return wrapPoint <= gating;
    }
}
