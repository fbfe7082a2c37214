using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Xunit;

namespace Exchange.Fix.Tests.Gateway;

/// <summary>
/// A logged-on session's NewOrderSingles after the first of a layout take the fused read (checks, header and mapping
/// in one pass, before the session's lock); the session still decides whether each is delivered, and the command
/// the fused read mapped is published only for the frame the session delivers.
/// </summary>
public class GatewayFusedOrderTests
{
    [Fact]
    public void Orders_after_the_first_of_a_layout_are_read_fused_into_the_same_commands()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder("FIRST"));
        h.Send("D", GatewayHarness.NewOrder("SECOND", price: "143.5", quantity: 300));
        h.Send("D", GatewayHarness.NewOrder("THIRD", symbol: "MSFT", price: "27.05", quantity: 20));

        Assert.Equal(2, h.Handler.FusedOrders);
        Assert.Empty(h.TakeSent());
        Command first = h.Publisher.Commands[0];
        Command second = h.Publisher.Commands[1];
        Command third = h.Publisher.Commands[2];
        Assert.Equal(("SECOND", 1_435_000L, 300L), (second.ClOrdId.ToString(), second.Price, second.Quantity));
        Assert.Equal(("THIRD", 1, 2_705L, 20L), (third.ClOrdId.ToString(), third.InstrumentId, third.Price, third.Quantity));

        // Everything else as the usual mapping of the first order gave it.
        foreach (Command fused in new[] { second, third })
        {
            Assert.Equal(
                (first.Type, first.Side, first.OrderType, first.TimeInForce, first.OwnerId, first.PossibleResend, first.SelfTradePrevention),
                (fused.Type, fused.Side, fused.OrderType, fused.TimeInForce, fused.OwnerId, fused.PossibleResend, fused.SelfTradePrevention));
        }
    }

    [Fact]
    public void An_order_the_fused_read_cannot_vouch_for_takes_the_usual_path_and_its_reject()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder("FIRST"));
        h.Send("D", GatewayHarness.NewOrder("OFF-TICK", price: "143.42001"));
        h.Send("D", GatewayHarness.NewOrder("UNKNOWN", symbol: "AAPM"));

        Assert.Equal(0, h.Handler.FusedOrders);
        Assert.Single(h.Publisher.Commands);
        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal(["8", "8"], sent.Select(m => m[35]));
        Assert.Equal(("OFF-TICK", "UNKNOWN"), (sent[0][11], sent[1][11]));
    }

    [Fact]
    public void A_fused_order_ahead_of_a_gap_is_queued_and_published_once_when_released()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("SECOND"), seq: 2));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("FOURTH", price: "143.44"), seq: 4));
        Assert.Equal("2", Assert.Single(h.TakeSent())[35]);
        Assert.Equal(["SECOND"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));

        h.Feed(h.Message("D", GatewayHarness.NewOrder("THIRD", price: "143.43"), seq: 3));

        Assert.Equal(["SECOND", "THIRD", "FOURTH"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal([1_434_200L, 1_434_300L, 1_434_400L], h.Publisher.Commands.Select(c => c.Price));
        Assert.Equal(1, h.Handler.FusedOrders);
    }

    [Fact]
    public void A_fused_order_whose_sequence_number_is_too_low_is_not_published()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder("FIRST"));
        h.Send("D", GatewayHarness.NewOrder("SECOND"));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("AGAIN"), seq: 3));

        Assert.Equal("5", Assert.Single(h.TakeSent())[35]);
        Assert.Equal(["FIRST", "SECOND"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(Side.Buy, h.Publisher.Commands[1].Side);
    }
}
