using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Exchange.Host.Pipeline;

/// <summary>
/// A preallocated ring of <typeparamref name="T"/> slots edited in place, with its processors (a Disruptor).
/// </summary>
/// <remarks>
/// <para>Use: construct, add processors (<see cref="AddProcessor{THandler}"/>, naming dependencies to build a graph),
/// <see cref="Start"/>, then produce with <see cref="Claim(out long)"/> (or <see cref="TryClaim"/>), write the slot,
/// <see cref="Publish"/>. Stop producers, then <see cref="DrainAndStop"/> processes everything published and ends the
/// threads.</para>
/// <para>Slots are never reallocated: steady-state produce/consume allocates nothing. The array has padding slots at
/// both ends so the first and last slots do not share a cache line with unrelated objects.</para>
/// </remarks>
internal sealed class SequenceRing<T>
    where T : struct
{
    private readonly T[] _slots;
    private readonly int _padding;
    private readonly long _mask;
    private readonly Sequencer _sequencer;
    private readonly List<EventProcessor> _processors = [];
    private bool _started;

    public SequenceRing(int size, ProducerMode mode)
    {
        _sequencer = new Sequencer(size, mode);
        _mask = size - 1;
        _padding = Math.Max(1, (128 + Unsafe.SizeOf<T>() - 1) / Unsafe.SizeOf<T>());
        _slots = new T[size + (2 * _padding)];
    }

    public int Size => _sequencer.BufferSize;

    /// <summary>Writes every page of the slots once (<see cref="Core.Memory.PageToucher"/>), before any producer runs; returns the bytes covered.</summary>
    public long PreFault() => Core.Memory.PageToucher.Touch(_slots);

    /// <summary>Highest claimed (multi producer) or published (single producer) sequence.</summary>
    public Sequence Cursor => _sequencer.Cursor;

    /// <summary>Slots produced but not yet passed by every processor (for the ring-occupancy gauge).</summary>
    public long Occupancy => _sequencer.Occupancy;

    public IReadOnlyList<EventProcessor> Processors => _processors;

    internal Sequencer Sequencer => _sequencer;

    /// <summary>The slot for <paramref name="sequence"/>. Write it only between claim and publish.</summary>
    public ref T this[long sequence]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), _padding + (int)(sequence & _mask));
    }

    /// <summary>Claims the next slot, waiting while the ring is full; write it, then <see cref="Publish"/>.</summary>
    /// <exception cref="InvalidOperationException">The ring was aborted (<see cref="Abort"/>).</exception>
    public ref T Claim(out long sequence)
    {
        if (!TryClaimWaiting(out sequence))
        {
            throw new InvalidOperationException("The ring was aborted: a processor faulted and the venue is stopping.");
        }

        return ref this[sequence];
    }

    /// <summary>
    /// Claims the next slot (write it at <c>this[sequence]</c>, then <see cref="Publish"/>), waiting while the ring is
    /// full, or running <paramref name="whenFull"/> instead of waiting when it is not null: a producer that shares its
    /// thread with the ring's processors (<see cref="StartInline"/>) passes the call that runs them, since waiting would
    /// wait for itself. False, claiming nothing, once the ring is aborted (<see cref="Abort"/>).
    /// </summary>
    public bool TryClaimWaiting(out long sequence, Action? whenFull = null)
    {
        if (whenFull is null)
        {
            return _sequencer.ClaimUnlessAborted(out sequence);
        }

        while (!_sequencer.IsAborted)
        {
            if (_sequencer.TryClaim(out sequence))
            {
                return true;
            }

            whenFull();
        }

        sequence = -1;
        return false;
    }

    /// <summary>
    /// A processor of this ring faulted and the venue is stopping: producers waiting for room give up rather than wait
    /// for a consumer that will not come (see <see cref="TryClaimWaiting"/>). What is already published is unaffected.
    /// </summary>
    public void Abort() => _sequencer.Abort();

    /// <summary>Claims the next slot or returns false at once when the ring is full (back-pressure to the caller).</summary>
    public bool TryClaim(out long sequence) => _sequencer.TryClaim(out sequence);

    /// <summary>Publishes a claimed slot to the processors. Every claimed sequence must be published.</summary>
    public void Publish(long sequence) => _sequencer.Publish(sequence);

    /// <summary>
    /// Adds a processor running <paramref name="handler"/> on a dedicated thread named <paramref name="name"/>,
    /// optionally pinned to <paramref name="cpu"/>. Without dependencies it consumes published slots; with them it
    /// consumes only slots every dependency has finished (for example a sender after both journaller and matcher).
    /// </summary>
    public BatchEventProcessor<T, THandler> AddProcessor<THandler>(
        THandler handler, WaitStrategyKind waitStrategy, string name, int? cpu = null, params EventProcessor[] dependsOn)
        where THandler : struct, IEventHandler<T>
    {
        if (_started)
        {
            throw new InvalidOperationException("Processors must be added before the ring starts.");
        }

        foreach (EventProcessor dependency in dependsOn)
        {
            if (!_processors.Contains(dependency))
            {
                throw new ArgumentException($"Dependency '{dependency.Name}' is not a processor of this ring.", nameof(dependsOn));
            }
        }

        Sequence[] dependencies = Array.ConvertAll(dependsOn, static processor => processor.Sequence);
        var barrier = new SequenceBarrier(_sequencer, dependencies, WaitStrategies.Create(waitStrategy, _sequencer));
        var processor = new BatchEventProcessor<T, THandler>(this, handler, barrier, name, cpu);
        _processors.Add(processor);
        return processor;
    }

    /// <summary>Gates producers on every processor and starts the processor threads.</summary>
    public void Start()
    {
        StartInline();
        foreach (EventProcessor processor in _processors)
        {
            processor.Start();
        }
    }

    /// <summary>
    /// Gates producers on every processor but starts no threads: the caller drives the processors with
    /// <see cref="EventProcessor.RunAvailable"/>, in dependency order, on its own thread. A producer on that same
    /// thread must never wait for space (it would wait for itself): use <see cref="TryClaim"/> and run the processors
    /// when the ring is full.
    /// </summary>
    public void StartInline()
    {
        if (_started)
        {
            throw new InvalidOperationException("The ring was already started.");
        }

        _started = true;
        _sequencer.SetGatingSequences(_processors.ConvertAll(static processor => processor.Sequence).ToArray());
    }

    /// <summary>
    /// Processes everything published so far, then stops every processor. Stop producers first: a claimed but never
    /// published slot would hold the drain until <paramref name="timeout"/>.
    /// </summary>
    /// <returns>False when some processor did not finish within <paramref name="timeout"/>.</returns>
    public bool DrainAndStop(TimeSpan timeout)
    {
        long last = _sequencer.Cursor.Value;
        foreach (EventProcessor processor in _processors)
        {
            processor.StopAfter(last);
        }

        return JoinAll(timeout);
    }

    /// <summary>Stops every processor after its current batch, without draining.</summary>
    public bool Halt(TimeSpan timeout)
    {
        foreach (EventProcessor processor in _processors)
        {
            processor.Halt();
        }

        return JoinAll(timeout);
    }

    private bool JoinAll(TimeSpan timeout)
    {
        DateTime deadline = DateTime.UtcNow + timeout;
        bool all = true;
        foreach (EventProcessor processor in _processors)
        {
            TimeSpan left = deadline - DateTime.UtcNow;
            all &= processor.Join(left > TimeSpan.Zero ? left : TimeSpan.Zero);
        }

        return all;
    }
}
