using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Session;

namespace Exchange.Fix.Gateway;

// Cancel on disconnect (SessionConfig.CancelOnDisconnect): the orders of a logon that ended go with it.
public sealed partial class FixGateway
{
    /// <summary>
    /// Publishes the <see cref="CommandType.CancelOnDisconnect"/> command of a session whose logon ended, then lets the
    /// session log on again (<see cref="GatewaySession.CancelOnDisconnectPending"/>). Called by the ended connection's
    /// own reading thread once it has released the session, outside the session's lock: publishing may wait for ring
    /// space, which the sender thread frees only after taking session locks.
    /// </summary>
    /// <remarks>
    /// Refused only while the venue stops (its ring takes no more commands before the sessions are logged out): a venue
    /// stop is not a client's disconnect, so the orders stay, and the journal has them at the next start. Logged either way.
    /// </remarks>
    internal void CancelOrdersOfEndedLogon(GatewaySession gs)
    {
        var command = new Command
        {
            Type = CommandType.CancelOnDisconnect,
            OwnerId = gs.OwnerId,
            InstrumentId = -1,
            Side = Side.None,
            Timestamp = _services.Clock.UtcNowNanos,
        };
        bool published;
        try
        {
            published = _services.Publisher.TryPublish(command);
        }
        finally
        {
            // Cleared whatever happened: left set, the session could never log on again.
            lock (gs.Lock)
            {
                gs.CancelOnDisconnectPending = false;
            }
        }

        SessionConfig config = gs.Session.Config;
        if (published)
        {
            _services.Log.Info($"Session {config.SenderCompID}->{config.TargetCompID}: logon ended, its resting orders are being canceled (CancelOnDisconnect)");
        }
        else
        {
            _services.Log.Info($"Session {config.SenderCompID}->{config.TargetCompID}: logon ended as the venue stops; its resting orders stay in the book (a venue stop does not cancel on disconnect)");
        }
    }
}
