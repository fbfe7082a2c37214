using Exchange.Core.Domain;
using Exchange.Host.Configuration;
using Exchange.Host.Venue;
using Xunit;

namespace Exchange.Host.Tests.Venue;

public class VenueWarmupTests
{
    [Fact]
    public void Script_TradesReportsStatusReplacesCancelsAndRejects_InAScratchEngine()
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        IReadOnlyList<Instrument> instruments = InstrumentFactory.Create(options.Instruments);
        VenueEngine venue = VenueEngine.FromPlugins(options, instruments);

        WarmupResult result = VenueWarmup.Run(options, instruments, venue.CreateScratchEngine!(instruments));

        // Per round: a resting buy and a sell that trades with it (two trade sides), a buy resent as a possible resend
        // (its status) and asked for (its status), replaced then cancelled, status requests for the filled buy and
        // for an id never used (statuses too), an IOC that finds nothing (cancelled), an off-tick buy (rejected), a resting sell
        // met by the session's own FOK (killed), an IOC that self-trade prevention cancels, and an IOC that it cancels with
        // the sell, a resting sell taken out by a mass cancel (its report and a cancel); then a resting buy that
        // the logout's cancel on disconnect takes out. Every order reached the engine.
        Assert.Equal(2 * VenueWarmup.Rounds, result.Trades);
        Assert.Equal(VenueWarmup.Rounds, result.Replaced);
        Assert.Equal((7 * VenueWarmup.Rounds) + 1, result.Cancelled);
        Assert.Equal(VenueWarmup.Rounds, result.Rejected);
        Assert.Equal(4 * VenueWarmup.Rounds, result.OrderStatuses);
        Assert.Equal(VenueWarmup.Rounds, result.MassCancelReports);
        Assert.Equal(3 + (18 * VenueWarmup.Rounds), result.Messages);
    }

    [Fact]
    public void Script_LeavesTheVenuesEngineAndFilesAlone()
    {
        using var directory = new TempVenueDirectory();
        VenueOptions options = VenueTestOptions.Create(directory.Path);
        foreach (SessionOptions session in options.Sessions)
        {
            session.StorePath = Path.Combine(directory.Path, "sessions");
        }

        IReadOnlyList<Instrument> instruments = InstrumentFactory.Create(options.Instruments);
        VenueEngine venue = VenueEngine.FromPlugins(options, instruments);

        VenueWarmup.Run(options, instruments, venue.CreateScratchEngine!(instruments));

        Assert.False(Directory.Exists(Path.Combine(directory.Path, "sessions")));
        var probe = new Core.Commands.Command
        {
            Type = Core.Commands.CommandType.NewOrder,
            InstrumentId = 0,
            OwnerId = 0,
            ClOrdId = ClOrdId.From("PROBE"),
            Side = Side.Buy,
            OrderType = OrderType.Limit,
            TimeInForce = TimeInForce.Day,
            Price = instruments[0].MinPrice,
            Quantity = 1,
        };

        // The venue's engine numbers orders and events exactly as a fresh one does: the warm-up's ~100 orders went
        // through another engine.
        Core.Events.EngineEvent fromVenue = venue.Engine.Process(probe)[0];
        Core.Events.EngineEvent fromFresh = venue.CreateScratchEngine!(instruments).Process(probe)[0];
        Assert.Equal(Core.Events.EventType.Accepted, fromVenue.Type);
        Assert.Equal(fromFresh.OrderId, fromVenue.OrderId);
        Assert.Equal(fromFresh.EventId, fromVenue.EventId);
    }
}
