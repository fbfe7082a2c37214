using System.Collections.Concurrent;
using System.Diagnostics;
using Exchange.Core.MarketData;
using Exchange.Core.Strategies;
using Exchange.Fix.Gateway;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.MarketData;

/// <summary>
/// Sends market data to subscribed sessions from its own thread: a snapshot (35=W) when a subscription arrives, then
/// each period an incremental refresh (35=X) for every subscribed book whose version changed since that subscriber's
/// last message. Books are read from the market-data store (the configured sync strategy), never from the engine.
/// </summary>
/// <remarks>
/// <para>Threading: requests arrive on connection tasks (<see cref="OnMarketDataRequest"/>, <see cref="OnSessionDisconnected"/>)
/// and are queued; only the publisher thread touches the subscription table and calls the gateway's market-data
/// methods, so a subscriber's snapshot always precedes its incrementals.</para>
/// <para>Period: waits use a wake-up event with millisecond resolution, so periods below 1 ms behave as about 1 ms;
/// a new request wakes the thread at once, and with no subscriber the thread sleeps until a request arrives. Allocation: a subscription allocates when it arrives; a period with no
/// requests allocates nothing.</para>
/// </remarks>
internal sealed partial class MarketDataPublisher : IMarketDataRequestHandler, IDisposable
{
    private readonly IMarketDataStore _store;
    private readonly ILogger _logger;
    private readonly long _periodTicks;
    private readonly ConcurrentQueue<Request> _requests = new();
    private readonly AutoResetEvent _wake = new(false);
    private readonly List<Subscriber> _subscribers = [];

    /// <summary>Per session (owner id), the latest logon whose connection ended (publisher thread only).</summary>
    private readonly Dictionary<int, int> _endedLogins = [];
    private readonly int[] _subscriberCount;
    private readonly BookDepth[] _current;
    private readonly bool[] _currentValid;
    private IFixGateway? _gateway;
    private Thread? _thread;
    private volatile bool _stopping;

    public MarketDataPublisher(IMarketDataStore store, int instrumentCount, int periodMicroseconds, ILogger logger)
    {
        _store = store;
        _logger = logger;
        _periodTicks = Math.Max(1, periodMicroseconds * Stopwatch.Frequency / 1_000_000);
        _subscriberCount = new int[instrumentCount];
        _current = new BookDepth[instrumentCount];
        _currentValid = new bool[instrumentCount];
    }

    /// <summary>Active subscriptions (snapshot + updates); read it from the publisher thread or after it stopped.</summary>
    public int SubscriptionCount => _subscribers.Count;

    /// <summary>Starts the publisher thread, sending through <paramref name="gateway"/>.</summary>
    public void Start(IFixGateway gateway)
    {
        if (_thread is not null)
        {
            throw new InvalidOperationException("The market-data publisher was already started.");
        }

        _gateway = gateway;
        _thread = new Thread(Run) { IsBackground = true, Name = "market-data" };
        _thread.Start();
    }

    public void OnMarketDataRequest(int ownerId, in MarketDataSubscription subscription)
    {
        _requests.Enqueue(new Request(ownerId, subscription, Disconnected: false));
        _wake.Set();
    }

    public void OnSessionDisconnected(int ownerId, int login)
    {
        _requests.Enqueue(new Request(ownerId, new MarketDataSubscription { Login = login }, Disconnected: true));
        _wake.Set();
    }

    /// <summary>
    /// Stops the thread (pending requests are dropped: the venue is closing) and releases the wake-up event once it
    /// has ended. Returns false when the thread was still running after <paramref name="timeout"/>: it may still be
    /// sending through the gateway, so the caller must not close the gateway under it.
    /// </summary>
    public bool Stop(TimeSpan timeout)
    {
        _stopping = true;
        _wake.Set();
        if (_thread is not null && !_thread.Join(timeout))
        {
            return false; // The event stays: the running thread still waits on it.
        }

        _wake.Dispose();
        return true;
    }

    public void Dispose() => Stop(TimeSpan.FromSeconds(5));

    private void Run()
    {
        long next = Stopwatch.GetTimestamp() + _periodTicks;
        while (!_stopping)
        {
            try
            {
                HandleRequests();
                if (_subscribers.Count == 0)
                {
                    // Nothing to publish: sleep until a request (or stop) arrives instead of waking every period.
                    _wake.WaitOne();
                    next = Stopwatch.GetTimestamp() + _periodTicks;
                    continue;
                }

                long now = Stopwatch.GetTimestamp();
                if (now >= next)
                {
                    PublishChanges();
                    next = now + _periodTicks;
                    continue;
                }

                long waitMs = Math.Max(1, (next - now) * 1000 / Stopwatch.Frequency);
                _wake.WaitOne((int)Math.Min(waitMs, int.MaxValue));
            }
#pragma warning disable CA1031 // A gateway bug must not end market data for everyone silently: log and continue.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                LogPublishFailed(_logger, exception);
                Thread.Sleep(100);
            }
        }
    }

    private void HandleRequests()
    {
        while (_requests.TryDequeue(out Request request))
        {
            MarketDataSubscription subscription = request.Subscription;
            int owner = request.OwnerId;
            if (request.Disconnected)
            {
                // That logon is over: its subscriptions go, and so does any of its requests still to come (it was read
                // before the logon ended but queued after); a later logon's are kept.
                _endedLogins[owner] = Math.Max(_endedLogins.GetValueOrDefault(owner, int.MinValue), subscription.Login);
                RemoveAll(s => s.OwnerId == owner && s.Subscription.Login <= subscription.Login);
                continue;
            }

            if (_endedLogins.TryGetValue(owner, out int ended) && subscription.Login <= ended)
            {
                continue;
            }

            if (subscription.SubscriptionRequestType == (byte)'2')
            {
                // The gateway checked the MDReqID names a live subscription of this logon; it ends on every book it
                // covers. Only this logon's: a later logon may already use the same MDReqID, and an unsubscribe read
                // before its logon ended (by the timer, say) can reach this queue after that logon's subscribe.
                RemoveAll(s => s.OwnerId == owner && s.Subscription.Login == subscription.Login && s.Subscription.MdReqId == subscription.MdReqId);
                continue;
            }

            int instrumentId = subscription.InstrumentId;
            if ((uint)instrumentId >= (uint)_current.Length)
            {
                continue; // the gateway validated ids; a stray one is ignored rather than trusted
            }

            var subscriber = new Subscriber(request.OwnerId, subscription);
            if (!_store.TryRead(instrumentId, ref subscriber.Last))
            {
                subscriber.Last = default;
                subscriber.Last.InstrumentId = instrumentId;
            }

            try
            {
                _gateway!.SendMarketDataSnapshot(request.OwnerId, in subscriber.Subscription, in subscriber.Last);
            }
#pragma warning disable CA1031 // One session's failure (its store's, say) must not hold up the requests behind it.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                // Not subscribed: incrementals would build on a snapshot the client never got.
                LogSnapshotFailed(_logger, request.OwnerId, exception);
                continue;
            }

            if (subscription.SubscriptionRequestType == (byte)'1')
            {
                _subscribers.Add(subscriber);
                _subscriberCount[instrumentId]++;
            }
        }
    }

    private void PublishChanges()
    {
        if (_subscribers.Count == 0)
        {
            return;
        }

        for (int id = 0; id < _current.Length; id++)
        {
            _currentValid[id] = _subscriberCount[id] != 0 && _store.TryRead(id, ref _current[id]);
        }

        bool anyEnded = false;
        foreach (Subscriber subscriber in _subscribers)
        {
            int id = subscriber.Subscription.InstrumentId;
            if (!_currentValid[id] || _current[id].Version == subscriber.Last.Version)
            {
                continue;
            }

            try
            {
                _gateway!.SendMarketDataIncremental(subscriber.OwnerId, in subscriber.Subscription, in subscriber.Last, in _current[id]);
                subscriber.Last = _current[id];
            }
#pragma warning disable CA1031 // One session's failure (its store's, say) must not stop the books of the subscribers after it.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                // The stream ends: a send can throw after its message went out (a cut-off's Logout failing after the
                // flush, say), so what the client last applied is unknown, and a diff from either book could be wrong.
                // Ending it also spares a failing session's streams a retry, and an exception, every period.
                subscriber.Ended = true;
                anyEnded = true;
                LogSubscriberFailed(_logger, subscriber.OwnerId, subscriber.Subscription.MdReqId.ToString(), exception);
            }
        }

        if (anyEnded)
        {
            RemoveAll(static s => s.Ended);
        }
    }

    /// <summary>One pass that keeps the survivors in order: removing one at a time shifted the list once per removal,
    /// which for a session's thousands of subscriptions stalled publishing for every session.</summary>
    private void RemoveAll(Predicate<Subscriber> match)
    {
        int kept = 0;
        for (int i = 0; i < _subscribers.Count; i++)
        {
            Subscriber subscriber = _subscribers[i];
            if (match(subscriber))
            {
                _subscriberCount[subscriber.Subscription.InstrumentId]--;
            }
            else
            {
                _subscribers[kept++] = subscriber;
            }
        }

        _subscribers.RemoveRange(kept, _subscribers.Count - kept);
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Market-data publishing failed; retrying")]
    private static partial void LogPublishFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Market-data snapshot to session {OwnerId} failed; the request is dropped")]
    private static partial void LogSnapshotFailed(ILogger logger, int ownerId, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Market-data update to session {OwnerId} (MDReqID {MdReqId}) failed; that stream ends, the other subscribers go on")]
    private static partial void LogSubscriberFailed(ILogger logger, int ownerId, string mdReqId, Exception exception);

    private readonly record struct Request(int OwnerId, MarketDataSubscription Subscription, bool Disconnected);

    /// <summary>One live subscription and the depth its subscriber last received.</summary>
    private sealed class Subscriber(int ownerId, MarketDataSubscription subscription)
    {
        public int OwnerId { get; } = ownerId;

        public MarketDataSubscription Subscription = subscription;

        public BookDepth Last;

        /// <summary>A send to this subscriber threw: its stream ends (removed after the pass that found it).</summary>
        public bool Ended;
    }
}
