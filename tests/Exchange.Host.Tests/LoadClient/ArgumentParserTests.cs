using Exchange.LoadClient.Options;
using Xunit;

namespace Exchange.Host.Tests.LoadClient;

public class ArgumentParserTests
{
    [Fact]
    public void NoArguments_GiveDefaults()
    {
        ParseOutcome outcome = ArgumentParser.Parse([]);

        LoadClientOptions options = Assert.IsType<LoadClientOptions>(outcome.Options);
        Assert.Equal("127.0.0.1", options.Host);
        Assert.Equal(9878, options.Port);
        Assert.Equal("LOADGEN", options.SenderCompId);
        Assert.Equal("EXCH", options.TargetCompId);
        Assert.Equal(LoadMode.Sync, options.Mode);
        Assert.Equal(20_000, options.EffectiveOrders);
        Assert.Equal(2_000, options.EffectiveWarmup);
        Assert.Equal(1_000_000, options.MidPrice);
        Assert.Equal(100, options.Tick);
        Assert.False(options.BusyPoll);
    }

    [Theory]
    [InlineData("rate", false)]
    [InlineData("mixed", true)]
    public void A_rate_of_zero_is_refused_in_rate_mode_and_means_pipelined_in_mixed_mode(string mode, bool accepted)
    {
        ParseOutcome outcome = ArgumentParser.Parse(["--mode", mode, "--rate", "0"]);

        Assert.Equal(accepted, outcome.Options is not null);
        Assert.Equal(accepted, outcome.Error is null);
    }

    [Fact]
    public void EveryOption_IsRead()
    {
        string[] args =
        [
            "--host", "10.0.0.5", "--port", "9000", "--sender", "CLIENT1", "--target", "VENUE", "--mode", "mixed",
            "--orders", "5000", "--rate", "20000", "--warmup", "100", "--latency-every", "50", "--symbol", "MSFT",
            "--hgrm-out", "out.hgrm", "--timeline-out", "t.csv", "--busy-poll", "--prepopulate", "200", "--window", "500", "--batch", "8",
            "--mid", "250.5", "--tick", "0.05", "--levels", "3", "--price-decimals", "2", "--qty", "7",
            "--heartbeat", "10", "--timeout", "5", "--run-id", "ABC1234",
        ];

        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(args).Options);

        Assert.Equal("10.0.0.5", options.Host);
        Assert.Equal(9000, options.Port);
        Assert.Equal("CLIENT1", options.SenderCompId);
        Assert.Equal("VENUE", options.TargetCompId);
        Assert.Equal(LoadMode.Mixed, options.Mode);
        Assert.Equal(5000, options.EffectiveOrders);
        Assert.Equal(20_000, options.Rate);
        Assert.Equal(100, options.EffectiveWarmup);
        Assert.Equal(50, options.LatencyEvery);
        Assert.Equal("MSFT", options.Symbol);
        Assert.Equal("out.hgrm", options.HgrmOut);
        Assert.Equal("t.csv", options.TimelineOut);
        Assert.True(options.BusyPoll);
        Assert.Equal(200, options.Prepopulate);
        Assert.Equal(500, options.Window);
        Assert.Equal(8, options.Batch);
        Assert.Equal(25_050, options.MidPrice);
        Assert.Equal(5, options.Tick);
        Assert.Equal(3, options.Levels);
        Assert.Equal(2, options.PriceDecimals);
        Assert.Equal(7, options.Quantity);
        Assert.Equal(10, options.HeartBtInt);
        Assert.Equal(5, options.TimeoutSeconds);
        Assert.Equal("ABC1234", options.RunId);
    }

    [Theory]
    [InlineData("rate", 200_000)]
    [InlineData("pipelined", 200_000)]
    [InlineData("sync", 20_000)]
    public void OrdersDefault_DependsOnMode(string mode, long expected)
    {
        LoadClientOptions options = Assert.IsType<LoadClientOptions>(ArgumentParser.Parse(["--mode", mode]).Options);
        Assert.Equal(expected, options.EffectiveOrders);
    }

    [Theory]
    [InlineData("--help")]
    [InlineData("-h")]
    public void Help_IsRequested(string flag)
    {
        ParseOutcome outcome = ArgumentParser.Parse(["--mode", "rate", flag]);
        Assert.True(outcome.HelpRequested);
        Assert.Null(outcome.Options);
    }

    [Theory]
    [InlineData("unknown option '--frobnicate'", "--frobnicate", "1")]
    [InlineData("--orders needs a value", "--orders")]
    [InlineData("--orders needs a value", "--orders", "--busy-poll")]
    [InlineData("--orders: 'ten' is not a whole number", "--orders", "ten")]
    [InlineData("--orders: '-5' is not a whole number", "--orders", "-5")]
    [InlineData("--port: 70000 is outside 1..65535", "--port", "70000")]
    [InlineData("--mode: 'fast' is not one of sync, rate, pipelined, mixed", "--mode", "fast")]
    [InlineData("unexpected argument 'sync'", "sync")]
    [InlineData("--mid: '100.00001' is not a positive price with at most 4 decimals", "--mid", "100.00001")]
    [InlineData("--tick: 'abc' is not a positive price with at most 4 decimals", "--tick", "abc")]
    [InlineData("--mid 0.03 is too low for 5 levels of tick 0.01", "--mid", "0.03")]
    [InlineData("--mid 100.005 is not a multiple of --tick 0.01", "--mid", "100.005")]
    [InlineData("--run-id: 'abc' must be 7 characters 0-9 or A-Z", "--run-id", "abc")]
    [InlineData("--sender: 'A=B' must be printable ASCII without spaces or '='", "--sender", "A=B")]
    [InlineData("--latency-every: 0 is outside 1..1000000", "--latency-every", "0")]
    public void BadArguments_AreNamedInTheError(string expected, params string[] args)
    {
        ParseOutcome outcome = ArgumentParser.Parse(args);

        Assert.Null(outcome.Options);
        Assert.False(outcome.HelpRequested);
        Assert.Equal(expected, outcome.Error);
    }
}
