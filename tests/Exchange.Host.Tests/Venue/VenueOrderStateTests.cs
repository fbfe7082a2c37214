using Xunit;

namespace Exchange.Host.Tests.Venue;

/// <summary>
/// ExecutionReports and OrderCancelRejects over FIX through the whole venue (real engine, Inline pipeline), scenario by
/// scenario against FIX 4.4 Volume 4 Appendix D (Order State Change Matrices): what a client reconciles from each report.
/// </summary>
public sealed class VenueOrderStateTests
{
    private static Task Replace(FixTestClient c, string clOrdId, string orig, char side, long qty, string price, string extra = "") =>
        c.SendAsync("G", $"41={orig}|11={clOrdId}|55=AAPL|54={side}|60={FixTestClient.Now()}|38={qty}|40=2|44={price}|{extra}");

    private static Task<Dictionary<int, string>> Reject(FixTestClient c, string clOrdId) =>
        c.ExpectAsync(m => m[35] == "9" && m[11] == clOrdId, "OrderCancelReject for " + clOrdId);

    private static Task Run(Func<FixTestClient, FixTestClient, Task> scenario) => VenueHost.WithBuyerAndSellerAsync("Inline", scenario);

    // C.3.a-like (4.4): partially filled order, replace decreasing quantity (above CumQty), then filled: the chain's ids and quantities.
    [Fact]
    public Task D3_partial_fill_then_replace_down_then_fill_reports_the_chain() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 30, "100.00");
        Dictionary<int, string> p = await seller.ExpectExecutionAsync("S1", 'F');
        Assert.Equal(("1", "100", "30", "70", "100"), (p[39], p[38], p[14], p[151], p[6]));

        await Replace(seller, "S2", "S1", '2', 80, "100.00");
        Dictionary<int, string> r = await seller.ExpectExecutionAsync("S2", '5');
        Assert.Equal((id, "S1", "1", "80", "30", "50", "100"), (r[37], r[41], r[39], r[38], r[14], r[151], r[6]));

        await buyer.NewOrderAsync("B2", '1', 50, "100.00");
        Dictionary<int, string> f = await seller.ExpectExecutionAsync("S2", 'F');
        Assert.Equal((id, "2", "80", "80", "0", "50"), (f[37], f[39], f[38], f[14], f[151], f[32]));
        Assert.False(f.ContainsKey(41));
    });

    // C.3.b / C.3.c (4.4): replace to a quantity at or below CumQty: order qty amended to cum qty, Replaced + Filled.
    [Theory]
    [InlineData(60)]
    [InlineData(50)]
    public Task D3_replace_to_or_below_cum_qty_is_replaced_and_filled_with_order_qty_cum_qty(long newQty) => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 60, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');

        await Replace(seller, "S2", "S1", '2', newQty, "100.00");
        Dictionary<int, string> r = await seller.ExpectExecutionAsync("S2", '5');
        Assert.Equal((id, "S1", "2", "60", "60", "0", "100"), (r[37], r[41], r[39], r[38], r[14], r[151], r[6]));

        // Too late now, under either id the client may still hold as latest.
        await seller.CancelAsync("S3", "S2", '2');
        Dictionary<int, string> cr = await Reject(seller, "S3");
        Assert.Equal((id, "S2", "2", "1", "0"), (cr[37], cr[41], cr[39], cr[434], cr[102]));

        // Nothing rests.
        await buyer.NewOrderAsync("B2", '1', 10, "100.00");
        Dictionary<int, string> b2 = await buyer.ExpectExecutionAsync("B2", '0');
        Assert.Equal(("0", "10"), (b2[39], b2[151]));
    });

    // C.2 / D.1.a (4.4): replace price change on a partially filled order that becomes marketable: Replaced then Trade, AvgPx blended.
    [Fact]
    public Task D4_price_replace_of_partially_filled_order_that_crosses_reports_replaced_then_fill() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "101.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 50, "101.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await buyer.NewOrderAsync("B2", '1', 30, "100.00");
        await buyer.ExpectExecutionAsync("B2", '0');

        await Replace(seller, "S2", "S1", '2', 100, "100.00");
        Dictionary<int, string> r = await seller.ExpectExecutionAsync("S2", '5');
        Assert.Equal((id, "S1", "1", "100", "50", "50", "101"), (r[37], r[41], r[39], r[38], r[14], r[151], r[6]));
        Assert.Equal("100", r[44]);
        Dictionary<int, string> t = await seller.ExpectExecutionAsync("S2", 'F');
        Assert.Equal((id, "1", "100", "80", "20", "30", "100"), (t[37], t[39], t[38], t[14], t[151], t[32], t[31]));
        Assert.Equal(100.625m, decimal.Parse(t[6], System.Globalization.CultureInfo.InvariantCulture));
    });

    // E.1.b (4.4): unsolicited cancel (mass cancel) of a replaced, partially filled order: current ClOrdID, Canceled.
    [Fact]
    public Task D6_unsolicited_cancel_of_replaced_partially_filled_order() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 30, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await Replace(seller, "S2", "S1", '2', 90, "100.00");
        await seller.ExpectExecutionAsync("S2", '5');
        await seller.SendAsync("q", $"11=MC-1|530=7|60={FixTestClient.Now()}|");
        Dictionary<int, string> c = await seller.ExpectExecutionAsync("S2", '4');
        Assert.Equal((id, "4", "90", "30", "0", "100"), (c[37], c[39], c[38], c[14], c[151], c[6]));
    });

    // G.1.c (4.4): status of a replaced, partially filled order by its current ClOrdID.
    [Fact]
    public Task D8_status_of_replaced_order() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 30, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await Replace(seller, "S2", "S1", '2', 90, "100.50");
        await seller.ExpectExecutionAsync("S2", '5');
        await seller.SendAsync("H", "11=S2|790=Q1|55=AAPL|54=2|");
        Dictionary<int, string> s = await seller.ExpectExecutionAsync("S2", 'I');
        Assert.Equal((id, "1", "90", "30", "60", "100", "100.5"), (s[37], s[39], s[38], s[14], s[151], s[6], s[44]));
    });

    // D.2.a (4.4; D16 in 4.2) chaining: two replaces sent back to back, processed sequentially.
    [Fact]
    public Task Chained_replaces_sent_back_to_back() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 10, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await Replace(seller, "S2", "S1", '2', 80, "100.00");
        await Replace(seller, "S3", "S2", '2', 70, "100.00");
        Dictionary<int, string> r1 = await seller.ExpectExecutionAsync("S2", '5');
        Dictionary<int, string> r2 = await seller.ExpectExecutionAsync("S3", '5');
        Assert.Equal((id, "S1", "1", "80", "70"), (r1[37], r1[41], r1[39], r1[38], r1[151]));
        Assert.Equal((id, "S2", "1", "70", "60"), (r2[37], r2[41], r2[39], r2[38], r2[151]));
    });

    // F.1.b: a PossResend of an order already received (X, since replaced by Y and still live) confirms back the
    // current state of the order (Order Status), not a reject of an unknown order.
    [Fact]
    public Task F1b_possresend_of_replaced_order_s_original_id_confirms_the_live_order() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await Replace(seller, "S2", "S1", '2', 90, "100.00");
        await seller.ExpectExecutionAsync("S2", '5');
        await seller.NewOrderAsync("S1", '2', 100, "100.00", possResend: true);
        Dictionary<int, string> st = await seller.ExpectAsync(m => m[35] == "8" && m[11] == "S1", "report for resent S1");
        Assert.Equal(("I", id, "0", "90", "0", "90"), (st[150], st[37], st[39], st[38], st[14], st[151]));
    });

    // F.1.a: duplicate ClOrdID (no PossResend) of an order that has filled: the reject carries the existing order's
    // status (OrderID, OrdStatus Filled, its quantities), not a blank "Rejected".
    [Fact]
    public Task F1a_duplicate_of_filled_order_reports_existing_order_status() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 100, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await seller.NewOrderAsync("S1", '2', 150, "100.00");
        Dictionary<int, string> rj = await seller.ExpectExecutionAsync("S1", '8');
        Assert.Equal("6", rj[103]);
        Assert.Equal((id, "2", "100", "100", "0"), (rj[37], rj[39], rj[38], rj[14], rj[151]));
    });

    // F.1.a: duplicate of a partly filled order the client cancelled.
    [Fact]
    public Task F1a_duplicate_of_cancelled_order_reports_existing_order_status() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 30, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await seller.CancelAsync("C1", "S1", '2');
        await seller.ExpectExecutionAsync("C1", '4');
        await seller.NewOrderAsync("S1", '2', 150, "100.00");
        Dictionary<int, string> rj = await seller.ExpectExecutionAsync("S1", '8');
        Assert.Equal("6", rj[103]);
        Assert.Equal((id, "4", "100", "30", "0"), (rj[37], rj[39], rj[38], rj[14], rj[151]));
    });

    // F.1.a: duplicate of the original ClOrdID of an order since replaced (still live under its new id).
    [Fact]
    public Task F1a_duplicate_of_replaced_order_s_original_id_reports_the_live_order() => Run(async (buyer, seller) =>
    {
        await seller.NewOrderAsync("S1", '2', 100, "100.00");
        string id = (await seller.ExpectExecutionAsync("S1", '0'))[37];
        await buyer.NewOrderAsync("B1", '1', 30, "100.00");
        await seller.ExpectExecutionAsync("S1", 'F');
        await Replace(seller, "S2", "S1", '2', 90, "100.00");
        await seller.ExpectExecutionAsync("S2", '5');
        await seller.NewOrderAsync("S1", '2', 150, "100.00");
        Dictionary<int, string> rj = await seller.ExpectExecutionAsync("S1", '8');
        Assert.Equal("6", rj[103]);
        Assert.Equal((id, "1", "90", "30", "60"), (rj[37], rj[39], rj[38], rj[14], rj[151]));
    });
}
