using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The venue's three ring processors (journaller, matcher, sender) driven in dependency order by the calling thread
/// (<see cref="PipelineMode.Inline"/>): everything the journaller commits in one batch is matched, and its reports are
/// encoded, before the call returns. The handlers are the ones the threaded pipeline runs; only who loops differs.
/// </summary>
/// <remarks>Threading: one thread (the polling thread) calls everything here.</remarks>
internal sealed class InlinePipeline
{
    private readonly EventProcessor _journaller;
    private readonly EventProcessor _matcher;
    private readonly EventProcessor _sender;
    private readonly Func<bool> _prepareWhileIdle;

    /// <param name="journaller">Inbound ring, no dependencies.</param>
    /// <param name="matcher">Inbound ring, after the journaller (so every report the sender sees is journalled).</param>
    /// <param name="sender">Outbound ring.</param>
    /// <param name="prepareWhileIdle">Work that saves the next order time, for a pass that found nothing to do (see <see cref="PrepareWhileIdle"/>).</param>
    public InlinePipeline(EventProcessor journaller, EventProcessor matcher, EventProcessor sender, Func<bool> prepareWhileIdle)
    {
        _journaller = journaller;
        _matcher = matcher;
        _sender = sender;
        _prepareWhileIdle = prepareWhileIdle;
    }

    /// <summary>
    /// For a pass of the polling thread that found nothing to do: prepares what the next order would otherwise wait for
    /// (the next page of the journal, <see cref="Journal.JournalWriter.PrepareNextRecord"/>, or of a file session store,
    /// <see cref="Fix.Gateway.IFixGateway.PrepareWhileIdle"/>). Returns whether it did anything; when there is nothing
    /// to prepare it costs a check per file.
    /// </summary>
    public bool PrepareWhileIdle() => _prepareWhileIdle();

    /// <summary>Journals, matches and sends everything published so far; returns the number of slots processed.</summary>
    public int RunOnce()
    {
        int processed = _journaller.RunAvailable();
        processed += _matcher.RunAvailable();
        processed += _sender.RunAvailable();
        return processed;
    }

    /// <summary>Runs until nothing is left (a drain at stop).</summary>
    public void RunUntilIdle()
    {
        while (RunOnce() != 0)
        {
        }
    }

    /// <summary>Sends what the matcher has produced so far (the matcher calls it when the outbound ring is full).</summary>
    public void DrainOutbound() => _sender.RunAvailable();
}
