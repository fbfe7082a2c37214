using Exchange.Host.Configuration;
using Microsoft.Extensions.Configuration;
using Xunit;

namespace Exchange.Host.Tests.Configuration;

public sealed class VenueConfigurationTests
{
    private static IConfiguration Build(string? file, params string[] args)
    {
        var builder = new ConfigurationBuilder();
        VenueConfiguration.AddVenueSources(builder, file, args);
        return builder.Build();
    }

    [Fact]
    public void Embedded_defaults_are_valid_and_describe_a_runnable_venue()
    {
        VenueOptions options = VenueConfiguration.Bind(Build(null));

        Assert.Equal("127.0.0.1", options.Listen.Address);
        Assert.Contains(options.Sessions, s => s.TargetCompId == "CLIENT1");
        Assert.Contains(options.Instruments, i => i.Symbol == "AAPL");
        var instruments = InstrumentFactory.Create(options.Instruments);
        Assert.Equal(100, instruments[0].TickSize);
        Assert.Equal(20_000_000, instruments[0].MaxPrice);
        Assert.Equal(Enumerable.Range(0, instruments.Count), instruments.Select(i => i.Id));
    }

    [Fact]
    public void The_trading_day_starts_at_midnight_UTC_unless_configured()
    {
        Assert.Equal("00:00", VenueConfiguration.Bind(Build(null)).TradingDay.StartsAt);

        VenueOptions options = VenueConfiguration.Bind(Build(null, "--Venue:TradingDay:StartsAt=21:30"));

        Assert.Equal(new TimeSpan(21, 30, 0), Exchange.Host.Venue.TradingDayCalendar.FromOptions(options.TradingDay).StartsAt);
    }

    [Fact]
    public void Command_line_overrides_a_single_key()
    {
        VenueOptions options = VenueConfiguration.Bind(Build(null, "--Venue:Listen:Port=9999", "--Venue:Pipeline:MatcherWait=Yielding"));

        Assert.Equal(9999, options.Listen.Port);
        Assert.Equal("Yielding", options.Pipeline.MatcherWait);
    }

    [Fact]
    public void Session_options_reach_the_gateway_s_session_configuration_and_are_off_by_default()
    {
        VenueOptions options = VenueConfiguration.Bind(Build(
            null, "--Venue:Sessions:1:CancelOnDisconnect=true", "--Venue:Sessions:1:MaxApplicationMessagesPerSecond=5000",
            "--Venue:Sessions:1:SelfTradePrevention=CancelResting"));

        Exchange.Fix.Session.SessionConfig plain = Exchange.Host.Venue.FixGatewayFactory.ToSessionConfig(options.Sessions[0], preFault: false);
        Exchange.Fix.Session.SessionConfig set = Exchange.Host.Venue.FixGatewayFactory.ToSessionConfig(options.Sessions[1], preFault: false);

        Assert.Equal((false, 0, Exchange.Core.Domain.SelfTradePrevention.None), (plain.CancelOnDisconnect, plain.MaxApplicationMessagesPerSecond, plain.SelfTradePrevention));
        Assert.Equal((true, 5000, Exchange.Core.Domain.SelfTradePrevention.CancelResting), (set.CancelOnDisconnect, set.MaxApplicationMessagesPerSecond, set.SelfTradePrevention));
    }

    [Fact]
    public void A_settings_file_replaces_the_defaults_instead_of_merging_lists()
    {
        string file = Path.Combine(Path.GetTempPath(), $"venue-{Guid.NewGuid():N}.json");
        File.WriteAllText(file, """
            { "Venue": {
                "Sessions": [ { "SenderCompId": "V", "TargetCompId": "ONLY" } ],
                "Instruments": [ { "Symbol": "XYZ", "PriceDecimals": 2, "TickSize": "0.05", "MinPrice": "1", "MaxPrice": "100" } ] } }
            """);
        try
        {
            VenueOptions options = VenueConfiguration.Bind(Build(file));

            Assert.Equal("ONLY", Assert.Single(options.Sessions).TargetCompId);
            Assert.Equal(5, InstrumentFactory.Create(options.Instruments)[0].TickSize);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Theory]
    [InlineData("--Venue:Pipeline:MatcherWait=Spinny", "Venue:Pipeline:MatcherWait: 'Spinny' is not allowed. Allowed values: BusySpin, Yielding, Sleeping, Blocking.")]
    [InlineData("--Venue:Pipeline:Mode=Parallel", "Venue:Pipeline:Mode: 'Parallel' is not allowed. Allowed values: Threaded, Inline.")]
    [InlineData("--Venue:Pipeline:Mode=Inline", "Venue:Pipeline:MatcherWait: 'Blocking' is not allowed with Venue:Pipeline:Mode 'Inline' (the polling thread idles between passes, it cannot block on every socket). Allowed values: BusySpin, Yielding, Sleeping.")]
    [InlineData("--Venue:Journal:Fsync=Sometimes", "Venue:Journal:Fsync: 'Sometimes' is not allowed. Allowed values: EveryBatch, Periodic, Never.")]
    [InlineData("--Venue:Pipeline:InboundRingSize=1000", "Venue:Pipeline:InboundRingSize: 1000 must be a power of two from 64 to 16777216.")]
    [InlineData("--Venue:Pipeline:OutboundRingSize=33554432", "Venue:Pipeline:OutboundRingSize: 33554432 must be a power of two from 64 to 16777216.")]
    [InlineData("--Venue:Pipeline:MaxClOrdIdsPerDay=100", "Venue:Pipeline:MaxClOrdIdsPerDay: 100 is out of range [1024, 134217728].")]
    [InlineData("--Venue:Sessions:2:MemoryStoreMegabytes=0", "Venue:Sessions:2:MemoryStoreMegabytes: 0 is out of range [1, 1024].")]
    [InlineData("--Venue:Sessions:0:MaxApplicationMessagesPerSecond=-1", "Venue:Sessions:0:MaxApplicationMessagesPerSecond: -1 is out of range [0, 1000000].")]
    [InlineData("--Venue:Sessions:0:SelfTradePrevention=Never", "Venue:Sessions:0:SelfTradePrevention: 'Never' is not allowed. Allowed values: None, CancelIncoming, CancelResting, CancelBoth.")]
    [InlineData("--Venue:Listen:Address=localhost:1", "Venue:Listen:Address: 'localhost:1' is not an IP address.")]
    [InlineData("--Venue:Instruments:0:TickSize=0.00001", "Venue:Instruments:0:TickSize: '0.00001' needs more than PriceDecimals=4 decimal places.")]
    [InlineData("--Venue:Instruments:0:MinPrice=3000", "Venue:Instruments:0: MinPrice 3000 is above MaxPrice 2000.")]
    [InlineData("--Venue:Instruments:0:Symbol=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456", "Venue:Instruments:0:Symbol: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456' is longer than 32 characters.")]
    [InlineData("--Venue:Sessions:1:TargetCompId=CLIENT1", "Venue:Sessions:1: session EXCH->CLIENT1 is configured twice.")]
    [InlineData("--Venue:TradingDay:StartsAt=24:00", "Venue:TradingDay:StartsAt: '24:00' is not a UTC time of day. Allowed values: HH:mm or HH:mm:ss, 00:00 to 23:59:59.")]
    [InlineData("--Venue:TradingDay:StartsAt=5pm", "Venue:TradingDay:StartsAt: '5pm' is not a UTC time of day. Allowed values: HH:mm or HH:mm:ss, 00:00 to 23:59:59.")]
    [InlineData("--Venue:Journal:SkipRecords=17", "Venue:Journal:SkipRecords: '17' is not a list of records to skip. Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.")]
    [InlineData("--Venue:Journal:SkipRecords=17:1a2b3c4d,x", "Venue:Journal:SkipRecords: '17:1a2b3c4d,x' is not a list of records to skip. Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.")]
    [InlineData("--Venue:Journal:SkipRecords=-3:1a2b3c4d", "Venue:Journal:SkipRecords: '-3:1a2b3c4d' is not a list of records to skip. Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.")]
    [InlineData("--Venue:Journal:SkipRecords=4:1a2b3c4d,4:1a2b3c4d", "Venue:Journal:SkipRecords: '4:1a2b3c4d,4:1a2b3c4d' is not a list of records to skip. Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.")]
    [InlineData("--Venue:Journal:SkipRecords=4:1a2b3c", "Venue:Journal:SkipRecords: '4:1a2b3c' is not a list of records to skip. Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.")]
    [InlineData("--Venue:Listen:Port=abc", "Venue:Listen:Port: 'abc' is not a whole number (digits, an optional sign, at most 2,147,483,647).")]
    [InlineData("--Venue:Sessions:1:HeartBtInt=30s", "Venue:Sessions:1:HeartBtInt: '30s' is not a whole number (digits, an optional sign, at most 2,147,483,647).")]
    [InlineData("--Venue:Instruments:0:LotSize=1.5", "Venue:Instruments:0:LotSize: '1.5' is not a whole number (digits, an optional sign, at most 9,223,372,036,854,775,807).")]
    [InlineData("--Venue:Pipeline:Warmup=yes", "Venue:Pipeline:Warmup: 'yes' is not allowed. Allowed values: true, false.")]
    [InlineData("--Venue:Sessions:5:TargetCompId=NEW", "Venue:Sessions:5: index 5 skips 3 (it would be bound as the next item, with every other setting at its code default). Allowed values: 0 to 2 for an existing item, 3 for a new one.")]
    [InlineData("--Venue:Sessions:x:TargetCompId=NEW", "Venue:Sessions:x: 'x' is not a list index. Allowed values: 0 to 2 for an existing item, 3 for a new one.")]
    [InlineData("--Venue:Sessions:00:TargetCompId=NEW", "Venue:Sessions:00: '00' is not a list index. Allowed values: 0 to 2 for an existing item, 3 for a new one.")]
    [InlineData("--Venue:Listen:Port=0x270F", "Venue:Listen:Port: '0x270F' is not a whole number (digits, an optional sign, at most 2,147,483,647).")]
    public void Invalid_values_name_the_key_and_what_is_allowed(string arg, string expected)
    {
        var ex = Assert.Throws<VenueConfigurationException>(() => VenueConfiguration.Bind(Build(null, arg)));

        Assert.Contains(expected, ex.Errors);
    }

    [Theory]
    [InlineData(" 9999")]
    [InlineData("9999 ")]
    [InlineData("+9999")]
    public void A_number_the_binder_reads_is_not_refused_before_binding(string port)
    {
        VenueOptions options = VenueConfiguration.Bind(Build(null, $"--Venue:Listen:Port={port}"));

        Assert.Equal(9999, options.Listen.Port);
    }

    [Theory]
    [InlineData(" true", true)]
    [InlineData("False ", false)]
    public void A_flag_the_binder_reads_is_not_refused_before_binding(string value, bool expected)
    {
        VenueOptions options = VenueConfiguration.Bind(Build(null, $"--Venue:Pipeline:Warmup={value}"));

        Assert.Equal(expected, options.Pipeline.Warmup);
    }

    [Theory]
    [InlineData("--Venue:Listen:Port=")]
    [InlineData("--Venue:Pipeline:Warmup=")]
    [InlineData("--Venue:Instruments:0:LotSize=")]
    public void An_empty_number_or_flag_is_left_at_its_default_as_the_binder_leaves_it(string arg)
    {
        VenueOptions defaults = VenueConfiguration.Bind(Build(null));

        VenueOptions options = VenueConfiguration.Bind(Build(null, arg));

        Assert.Equal(defaults.Listen.Port, options.Listen.Port);
        Assert.Equal(defaults.Pipeline.Warmup, options.Pipeline.Warmup);
        Assert.Equal(defaults.Instruments[0].LotSize, options.Instruments[0].LotSize);
    }

    [Fact]
    public void An_override_may_add_the_next_list_item()
    {
        VenueOptions options = VenueConfiguration.Bind(Build(null, "--Venue:Sessions:3:TargetCompId=NEW", "--Venue:Sessions:3:StorePath="));

        Assert.Equal(4, options.Sessions.Count);
        Assert.Equal("NEW", options.Sessions[3].TargetCompId);
    }

    [Theory]
    [InlineData("--Venue:Jornal:Fsync=Never", "Jornal")]
    [InlineData("--Venue:Journal:FsyncIntervalMs=5", "FsyncIntervalMs")]
    [InlineData("--Venue:TradingDay:StartAt=17:00", "StartAt")]
    public void A_misspelt_key_fails_at_start_naming_it(string arg, string expected)
    {
        var ex = Assert.Throws<VenueConfigurationException>(() => VenueConfiguration.Bind(Build(null, arg)));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--config", "x.json")]
    [InlineData("-c", "x.json")]
    [InlineData("--config=x.json", null)]
    public void Config_switch_is_found_and_removed_from_the_arguments(string first, string? second)
    {
        string[] args = second is null ? [first, "--Venue:Listen:Port=1"] : [first, second, "--Venue:Listen:Port=1"];

        Assert.Equal("x.json", VenueConfiguration.FindSettingsFile(args));
        Assert.Equal(["--Venue:Listen:Port=1"], VenueConfiguration.WithoutConfigSwitch(args));
    }

    [Theory]
    [InlineData("--config")]
    [InlineData("--config=")]
    [InlineData("-c")]
    public void Config_switch_without_a_path_fails_naming_the_switch(string last)
    {
        // Passed on, it would become a key nothing reads, and the venue would start on the embedded defaults.
        string[] args = ["--Venue:Listen:Port=1", last];

        var ex = Assert.Throws<VenueConfigurationException>(() => VenueConfiguration.FindSettingsFile(args));

        Assert.Contains(last, ex.Message, StringComparison.Ordinal);
    }
}
