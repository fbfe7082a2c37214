using System.Buffers;
using System.IO.Pipelines;
using Exchange.Core.Domain;
using Exchange.Core.Events;
using Exchange.Core.MarketData;
using Exchange.Fix.Gateway;
using Exchange.Host.Configuration;
using Exchange.Host.Venue;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// A gateway that records what the venue hands it (events, market data, lifecycle calls) and exposes the command
/// publisher and market-data handler the venue gave it, so tests can drive the pipeline without FIX.
/// </summary>
internal sealed class FakeGateway : IFixGateway, IGatewayFactory, IDisposable
{
    private readonly Lock _lock = new();
    private readonly List<(EngineEvent Event, StageTimes Times)> _events = [];
    private readonly List<(int Owner, MarketDataSubscription Subscription, BookDepth Depth)> _snapshots = [];
    private readonly List<(int Owner, MarketDataSubscription Subscription, BookDepth Previous, BookDepth Current)> _incrementals = [];

    public ICommandPublisher? Commands { get; private set; }

    public IMarketDataRequestHandler? MarketData { get; private set; }

    /// <summary>Runs on the sender thread inside <see cref="SendEvent"/>, before the event is recorded.</summary>
    public Action<EngineEvent>? OnSend { get; set; }

    public int LogoutAllCalls { get; private set; }

    /// <summary>How often the venue closed the gateway (and with it, in a real one, the session stores).</summary>
    public int DisposeCalls => Volatile.Read(ref _disposals);

    private int _disposals;

    public int PollCalls => Volatile.Read(ref _polls);

    public int SessionCount => 2;

    public long RejectsSent => 0;

    public MessageRejects MessageRejectsSent => default;

    private int _polls;

    public IFixGateway Create(VenueOptions options, IReadOnlyList<Instrument> instruments, ICommandPublisher commands, IMarketDataRequestHandler marketData)
    {
        Commands = commands;
        MarketData = marketData;
        return this;
    }

    public List<(EngineEvent Event, StageTimes Times)> Events()
    {
        lock (_lock)
        {
            return [.. _events];
        }
    }

    public List<(int Owner, MarketDataSubscription Subscription, BookDepth Depth)> Snapshots()
    {
        lock (_lock)
        {
            return [.. _snapshots];
        }
    }

    public List<(int Owner, MarketDataSubscription Subscription, BookDepth Previous, BookDepth Current)> Incrementals()
    {
        lock (_lock)
        {
            return [.. _incrementals];
        }
    }

    /// <summary>Waits (bounded) until at least <paramref name="count"/> events were sent.</summary>
    public List<(EngineEvent Event, StageTimes Times)> WaitForEvents(int count, TimeSpan? timeout = null)
    {
        bool ok = SpinWait.SpinUntil(
            () =>
            {
                lock (_lock)
                {
                    return _events.Count >= count;
                }
            },
            timeout ?? TimeSpan.FromSeconds(20));
        List<(EngineEvent Event, StageTimes Times)> events = Events();
        Xunit.Assert.True(ok, $"expected {count} events, got {events.Count}");
        return events;
    }

    public bool IsLoggedOn(int ownerId) => false;

    public async Task RunConnectionAsync(IFixConnection connection, PipeReader input, CancellationToken cancellationToken)
    {
        while (true)
        {
            ReadResult read = await input.ReadAsync(cancellationToken).ConfigureAwait(false);
            input.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
            {
                return;
            }
        }
    }

    /// <summary>Connections the polling thread attached (Inline mode).</summary>
    public int AttachCalls => Volatile.Read(ref _attachments);

    private int _attachments;

    public IFixConnectionReader Attach(IFixConnection connection)
    {
        Interlocked.Increment(ref _attachments);
        return new DiscardingReader();
    }

    public void SendEvent(in EngineEvent engineEvent, in StageTimes times)
    {
        OnSend?.Invoke(engineEvent);
        lock (_lock)
        {
            _events.Add((engineEvent, times));
        }
    }

    /// <summary>Events the start-up replay handed over (<see cref="RecoverEvent"/>), in order.</summary>
    public List<EngineEvent> Recovered { get; } = [];

    /// <summary>The last event id <see cref="CompleteRecovery"/> was told; null before it was called.</summary>
    public long? RecoveryCompletedAt { get; private set; }

    /// <summary>Records the event; answers "not stored", as for sessions whose stores already hold every report.</summary>
    public bool RecoverEvent(in EngineEvent engineEvent)
    {
        Recovered.Add(engineEvent);
        return false;
    }

    /// <summary>The highest event id the fake's "stores" hold reports of (what <see cref="CompleteRecovery"/> answers when higher).</summary>
    public long StoredThrough { get; set; }

    public long CompleteRecovery(long lastEventId)
    {
        RecoveryCompletedAt = lastEventId;
        return Math.Max(lastEventId, StoredThrough);
    }

    private int _failMarketDataTo = -1;
    private int _failedMarketDataSends;

    /// <summary>Market-data sends to this session throw, as a session whose store failed does; -1 for none.</summary>
    public int FailMarketDataTo
    {
        get { lock (_lock) { return _failMarketDataTo; } }
        set { lock (_lock) { _failMarketDataTo = value; } }
    }

    /// <summary>Market-data sends that threw (<see cref="FailMarketDataTo"/>).</summary>
    public int FailedMarketDataSends
    {
        get { lock (_lock) { return _failedMarketDataSends; } }
    }

    public void SendMarketDataSnapshot(int ownerId, in MarketDataSubscription subscription, in BookDepth depth)
    {
        lock (_lock)
        {
            ThrowIfFailing(ownerId);
            _snapshots.Add((ownerId, subscription, depth));
        }
    }

    public void SendMarketDataIncremental(int ownerId, in MarketDataSubscription subscription, in BookDepth previous, in BookDepth current)
    {
        lock (_lock)
        {
            ThrowIfFailing(ownerId);
            _incrementals.Add((ownerId, subscription, previous, current));
        }
    }

    private void ThrowIfFailing(int ownerId)
    {
        // Caller holds _lock.
        if (ownerId == _failMarketDataTo)
        {
            _failedMarketDataSends++;
            throw new InvalidOperationException("Session store is unusable; restart to reopen it.");
        }
    }

    /// <summary>Runs inside <see cref="Poll"/> (the session timer's thread), after the call is counted.</summary>
    public Action? OnPoll { get; set; }

    public void Poll()
    {
        Interlocked.Increment(ref _polls);
        OnPoll?.Invoke();
    }

    /// <summary>How often a store preparation was asked for (<see cref="PrepareWhileIdle"/>).</summary>
    public int PrepareCalls => Volatile.Read(ref _prepares);

    private int _prepares;

    public bool PrepareWhileIdle()
    {
        Interlocked.Increment(ref _prepares);
        return false;
    }

    public Task LogoutAllAsync(string text, TimeSpan timeout)
    {
        LogoutAllCalls++;
        return Task.CompletedTask;
    }

    public void Dispose() => Interlocked.Increment(ref _disposals);

    /// <summary>Consumes whatever a polled connection receives, like <see cref="RunConnectionAsync"/>.</summary>
    private sealed class DiscardingReader : IFixConnectionReader
    {
        public bool CloseRequested => false;

        public void Process(in ReadOnlySequence<byte> buffer, out SequencePosition consumed, out SequencePosition examined)
        {
            consumed = buffer.End;
            examined = buffer.End;
        }

        public int Process(ReadOnlySpan<byte> buffer) => buffer.Length;

        public void Detach(string why)
        {
        }
    }
}
