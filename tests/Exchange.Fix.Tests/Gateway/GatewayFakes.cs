using Exchange.Core.Commands;
using Exchange.Fix.Gateway;

namespace Exchange.Fix.Tests.Gateway;

internal sealed class RecordingPublisher : ICommandPublisher
{
    public List<Command> Commands { get; } = [];

    public bool Accept { get; set; } = true;

    public bool Record { get; set; } = true;

    public int Count { get; private set; }

    /// <summary>Thrown by every publication while set (a pipeline fault surfacing through the ring).</summary>
    public Exception? Fault { get; set; }

    public bool TryPublish(in Command command)
    {
        Count++;
        if (Fault is not null)
        {
            throw Fault;
        }

        if (Record && Accept)
        {
            lock (Commands)
            {
                Commands.Add(command);
            }
        }

        return Accept;
    }
}

internal sealed class RecordingMarketData : IMarketDataRequestHandler
{
    public List<(int Owner, MarketDataSubscription Request)> Requests { get; } = [];

    public List<int> Disconnected { get; } = [];

    /// <summary>The logon number of each <see cref="Disconnected"/> call.</summary>
    public List<int> DisconnectedLogins { get; } = [];

    public void OnMarketDataRequest(int ownerId, in MarketDataSubscription subscription) => Requests.Add((ownerId, subscription));

    public void OnSessionDisconnected(int ownerId, int login)
    {
        Disconnected.Add(ownerId);
        DisconnectedLogins.Add(login);
    }
}

internal sealed class ListLog : IGatewayLog
{
    public List<string> Lines { get; } = [];

    public void Info(string message)
    {
        lock (Lines)
        {
            Lines.Add("info: " + message);
        }
    }

    public void Warn(string message)
    {
        lock (Lines)
        {
            Lines.Add("warn: " + message);
        }
    }
}
