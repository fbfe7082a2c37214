using Exchange.Host.Journal;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The journaller on the inbound ring: appends each command under its journal sequence (<see cref="Core.Commands.Command.Sequence"/>,
/// which continues after the records already in the file), commits once per batch, then wakes a sender waiting on
/// durability.
/// </summary>
/// <remarks>Runs on the journaller thread only; no allocation per command (see <see cref="JournalWriter"/>).</remarks>
internal readonly struct JournalHandler : IEventHandler<InboundSlot>
{
    private readonly JournalWriter _writer;
    private readonly DurabilityGate _gate;

    public JournalHandler(JournalWriter writer, DurabilityGate gate)
    {
        _writer = writer;
        _gate = gate;
    }

    public void OnEvent(ref InboundSlot evt, long sequence, bool endOfBatch)
    {
        _writer.Append(in evt.Command, evt.Command.Sequence);
        if (endOfBatch)
        {
            _writer.CommitBatch();
            _gate.Advanced();
        }
    }
}
