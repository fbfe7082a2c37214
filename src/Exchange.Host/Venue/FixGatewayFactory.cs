using Exchange.Core.Domain;
using Exchange.Fix.Gateway;
using Exchange.Fix.Session;
using Exchange.Host.Configuration;
using Microsoft.Extensions.Logging;

namespace Exchange.Host.Venue;

/// <summary>Builds the production <see cref="FixGateway"/> from the venue configuration.</summary>
/// <remarks>
/// Sessions keep their configuration order: a session's index is its owner id, which the journal records, so reordering
/// sessions between runs would hand recovered orders to another client. Each session with a StorePath gets a file store
/// at StorePath/SENDER-TARGET.session (sequence numbers and sent messages survive restarts); an empty StorePath keeps
/// the session in memory.
/// </remarks>
/// <param name="loggers">The gateway's log.</param>
/// <param name="clock">Receive times (the commands' timestamps), SendingTime and session timers; the venue's trading
/// days run on the same clock, so an order and the day roll are stamped alike.</param>
internal sealed class FixGatewayFactory(ILoggerFactory loggers, IClock clock) : IGatewayFactory
{
    public IFixGateway Create(VenueOptions options, IReadOnlyList<Instrument> instruments, ICommandPublisher commands, IMarketDataRequestHandler marketData)
    {
        var sessions = options.Sessions.ConvertAll(session => ToSessionConfig(session, options.Pipeline.PreFault));
        var gatewayOptions = new GatewayOptions
        {
            MaxSendBacklogBytes = options.Listen.MaxSendBacklogBytes,
            StageTimestamps = options.Pipeline.StageTimestamps,
        };
        return new FixGateway(
            sessions,
            instruments,
            clock,
            static config => config.CreateStore(),
            commands,
            marketData,
            gatewayOptions,
            new GatewayLog(loggers.CreateLogger("Exchange.Fix.Gateway")));
    }

    /// <summary>
    /// The session configuration for one configured session (store location, fsync policy, size of an in-memory store,
    /// which is written through at creation when <paramref name="preFault"/>).
    /// </summary>
    public static SessionConfig ToSessionConfig(SessionOptions session, bool preFault) =>
        new(session.SenderCompId, session.TargetCompId)
        {
            StorePath = string.IsNullOrEmpty(session.StorePath)
                ? null
                : Path.GetFullPath(Path.Combine(session.StorePath, SessionOptions.StoreFileName(session.SenderCompId, session.TargetCompId))),
            FsyncPolicy = Enum.Parse<FsyncPolicy>(session.StoreFsync, ignoreCase: true),
            MemoryStoreBytes = session.MemoryStoreMegabytes << 20,
            PreFaultMemoryStore = preFault,
            CancelOnDisconnect = session.CancelOnDisconnect,
            MaxApplicationMessagesPerSecond = session.MaxApplicationMessagesPerSecond,
            SelfTradePrevention = Enum.Parse<Core.Domain.SelfTradePrevention>(session.SelfTradePrevention, ignoreCase: true),
        };
}
