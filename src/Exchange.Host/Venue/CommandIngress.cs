using System.Diagnostics;
using Exchange.Core.Commands;
using Exchange.Fix.Gateway;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The gateway's way into the inbound ring (<see cref="ICommandPublisher"/>): copies a decoded command into a slot and
/// gives it its journal sequence (ring sequence + the number of commands already journalled before this run).
/// </summary>
/// <remarks>
/// <para>Threading: called from many connection tasks at once (the ring is multi-producer). A full ring makes the
/// caller wait: back-pressure reaches the clients through their TCP windows.</para>
/// <para>Stopping: <see cref="StopAccepting"/> refuses new commands and waits for publications already in progress, so
/// that when the ring is drained no accepted command is left unpublished. The in-flight count and the stop flag form a
/// Dekker handshake (interlocked on both sides): either the publisher sees the flag, or the stopper sees it in flight.</para>
/// </remarks>
internal sealed class CommandIngress : ICommandPublisher
{
    private readonly SequenceRing<InboundSlot> _ring;
    private readonly Action? _drainRing;
    private long _firstSequence;
    private int _inFlight;
    private int _stopping;

    /// <param name="ring">The inbound ring; its slot 0 is journal sequence 0 until <see cref="ContinueAfter"/> says otherwise.</param>
    /// <param name="drainRing">
    /// Inline pipeline only: runs the ring's consumers on the publishing thread when the ring is full (they share the
    /// thread, so waiting would wait forever). Null when the consumers have their own threads.
    /// </param>
    public CommandIngress(SequenceRing<InboundSlot> ring, Action? drainRing = null)
    {
        _ring = ring;
        _drainRing = drainRing;
    }

    public bool IsAccepting => Volatile.Read(ref _stopping) == 0;

    /// <summary>
    /// Start-up, before the first publication: numbers ring slot 0 as one past <paramref name="lastJournalled"/>. The
    /// venue builds the gateway, and with it this ingress, before it replays the journal (the replay hands reports to
    /// the gateway's session stores), so the last journalled sequence is known only afterwards.
    /// </summary>
    public void ContinueAfter(long lastJournalled) => _firstSequence = lastJournalled + 1;

    public bool TryPublish(in Command command)
    {
        Interlocked.Increment(ref _inFlight);
        try
        {
            if (Volatile.Read(ref _stopping) != 0)
            {
                return false;
            }

            // Before the claim: time spent waiting for room in a full ring is the venue's, not the network's.
            long received = Stopwatch.GetTimestamp();
            if (!_ring.TryClaimWaiting(out long sequence, _drainRing))
            {
                return false; // the ring was aborted: the venue is stopping after a pipeline fault
            }

            ref InboundSlot slot = ref _ring[sequence];
            slot.Command = command;
            slot.Command.Sequence = _firstSequence + sequence;
            slot.ReceivedTimestamp = received;
            _ring.Publish(sequence);
            return true;
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
        }
    }

    /// <summary>Refuses further commands and waits (up to <paramref name="timeout"/>) for publications in progress.</summary>
    /// <returns>False when a publication was still in progress at the timeout (a ring full with stopped consumers).</returns>
    public bool StopAccepting(TimeSpan timeout)
    {
        Interlocked.Exchange(ref _stopping, 1);
        return SpinWait.SpinUntil(() => Volatile.Read(ref _inFlight) == 0, timeout);
    }
}
