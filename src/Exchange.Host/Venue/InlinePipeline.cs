using Exchange.Host.Pipeline;

namespace Exchange.Host.Venue;

/// <summary>
/// The venue's three ring processors (journaller, matcher, sender) driven in dependency order by the calling thread
/// (<see cref="PipelineMode.Inline"/>): everything the journaller commits in one batch is matched, and its reports are
/// encoded, before the call returns. The handlers are the ones the threaded pipeline runs; only who loops differs.
/// </summary>
/// <remarks>
/// <para>Threading: one thread (the polling thread) calls everything here.</para>
/// <para>Failures: an exception from a handler is a bug or a failed journal write, after which the processors'
/// positions no longer match what the engine and the journal hold (a handler may have applied part of a batch). So the
/// first one latches <see cref="Fault"/> and every later call throws at once: nothing runs the same slots again, even
/// where the exception surfaced inside a caller that handles its own failures (a connection's read publishing into a
/// full ring, which drains it through <see cref="RunOnce"/>).</para>
/// </remarks>
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

    /// <summary>The first exception a handler threw; the pipeline does not run after it.</summary>
    public Exception? Fault { get; private set; }

    /// <summary>Journals, matches and sends everything published so far; returns the number of slots processed.</summary>
    public int RunOnce()
    {
        ThrowIfFaulted();
        try
        {
            int processed = _journaller.RunAvailable();
            processed += _matcher.RunAvailable();
            processed += _sender.RunAvailable();
            return processed;
        }
        catch (Exception exception)
        {
            Fault ??= exception;
            throw;
        }
    }

    /// <summary>Runs until nothing is left (a drain at stop).</summary>
    public void RunUntilIdle()
    {
        while (RunOnce() != 0)
        {
        }
    }

    private void ThrowIfFaulted()
    {
        if (Fault is not null)
        {
            throw new InvalidOperationException("The inline pipeline faulted earlier and does not run again.", Fault);
        }
    }
}
