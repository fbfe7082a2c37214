using Xunit;
using Exchange.Fix.Session;

using Exchange.Tests.Shared;

namespace Exchange.Fix.Tests.Session;

/// <summary>One configured session (VENUE &lt;- CLIENT1) over a memory store, a fake clock and recording sinks.</summary>
internal sealed class SessionHarness : IDisposable
{
    public const string Venue = "VENUE";
    public const string Client = "CLIENT1";

    public SessionHarness(SessionConfig? config = null, ISessionStore? store = null)
    {
        Config = config ?? new SessionConfig(Venue, Client);
        Store = store ?? new MemorySessionStore();
        Registry = new SessionRegistry(new TestEncoder(), Clock);
        Session = Registry.Add(Config, Store);
    }

    public FakeClock Clock { get; } = new();

    public SessionConfig Config { get; }

    public ISessionStore Store { get; }

    public SessionRegistry Registry { get; }

    public FixSession Session { get; }

    public RecordingTransport Transport { get; private set; } = new();

    public RecordingApplication App { get; private set; } = new();

    public List<SentMessage> Sent => Transport.Sent;

    /// <summary>Routes a first message through the registry on a fresh connection.</summary>
    public LogonRouting Connect(TestMsg first)
    {
        Transport = new RecordingTransport();
        App = new RecordingApplication();
        return first.Route(Registry, Clock, Transport, App, out _);
    }

    /// <summary>Logs on with MsgSeqNum 1 (or the given one) and forgets the Logon reply.</summary>
    public void LogOn(int seq = 1, int heartBtInt = 30)
    {
        LogonRouting result = Connect(TestMsg.Logon(seq, heartBtInt));
        Assert.Equal(LogonRouting.Accepted, result);
        Sent.Clear();
    }

    public void Feed(TestMsg message) => message.Feed(Session, Clock);

    public SentMessage Single(string msgType) => Assert.Single(Sent, m => m.MsgType == msgType);

    public void Dispose() => Registry.Dispose();
}
