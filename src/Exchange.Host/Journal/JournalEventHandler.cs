using Exchange.Core.Commands;
using Exchange.Host.Pipeline;

namespace Exchange.Host.Journal;

/// <summary>
/// The journaller's ring handler: appends each command in ring order and commits at the end of each batch, so one
/// write (and at most one fsync) covers everything that arrived together.
/// </summary>
internal struct JournalEventHandler : IEventHandler<Command>
{
    private readonly JournalWriter _writer;

    public JournalEventHandler(JournalWriter writer) => _writer = writer;

    public readonly void OnEvent(ref Command evt, long sequence, bool endOfBatch)
    {
        _writer.Append(in evt, sequence);
        if (endOfBatch)
        {
            _writer.CommitBatch();
        }
    }
}
