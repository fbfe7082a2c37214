using System.Diagnostics;
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
    private readonly bool _prepareAfterCommit;

    /// <param name="prepareAfterCommit">
    /// Whether to prepare the next record's page (<see cref="JournalWriter.PrepareNextRecord"/>) once a batch is
    /// released: on its own thread the journaller runs beside the matcher and sender, so nothing of the batch waits for
    /// it. Not inline, where matching and sending come after this handler on the same thread (the polling thread
    /// prepares when idle instead).
    /// </param>
    public JournalHandler(JournalWriter writer, DurabilityGate gate, bool prepareAfterCommit)
    {
        _writer = writer;
        _gate = gate;
        _prepareAfterCommit = prepareAfterCommit;
    }

    public void OnEvent(ref InboundSlot evt, long sequence, bool endOfBatch)
    {
        _writer.Append(in evt.Command, evt.Command.Sequence);
        if (endOfBatch)
        {
            _writer.CommitBatch();
            _gate.Advanced(Stopwatch.GetTimestamp());
            if (_prepareAfterCommit)
            {
                _writer.PrepareNextRecord();
            }
        }
    }
}
