using System.Runtime.InteropServices;
using System.Text;
using Exchange.Core.Commands;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Gateway;
using Exchange.Fix.Mapping;
using Exchange.Fix.Session;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The fused NewOrderSingle read against the usual path (full parse and dictionary walk, session header, mapper) on
/// random layouts and values, compared by result: whenever the fused read says yes, the usual path must find the
/// message valid and map it Ok to the same command with the same header values; whenever it says no, running the
/// plan's checks must give the usual verdict. Every valid order of a qualifying layout must take the fused read, so the
/// comparison cannot pass by the fused read refusing everything.
/// </summary>
public class FusedNewOrderReaderTests
{
    private const int OwnerId = 5;
    private const long ReceiveTime = 1_234_567;

    private static readonly InstrumentDirectory Instruments = new(
    [
        new Instrument(0, "AAPL", 4, 100, 1, 100, 10_000_000),
        new Instrument(1, "MSFT", 2, 1, 10, 1, 1_000_000),
        new Instrument(2, "BRK.B-CLASS-B", 0, 1, 1, 1, 1_000_000),
    ]);

    private static readonly string[] Symbols = ["AAPL", "MSFT", "BRK.B-CLASS-B", "AAPM", "BRK.B-CLASS-C", "A"];
    private static readonly string[] Sides = ["1", "2", "5", "X", "12"];
    private static readonly string[] OrdTypes = ["2", "1", "3", "Z"];
    private static readonly string[] TimesInForce = ["0", "1", "3", "4", "6", "Q"];
    private static readonly string[] Quantities = ["100", "100.0", "7", "100.5", "-5", "0", "abc", "1e3", "99999999999999999999", ".5", "1."];
    private static readonly string[] Prices = ["143.42", "143.4200", "143.4", "143.42001", "-1.5", "0", "1x", "9223372036854775807", "922337203685477.5807", "12."];
    private static readonly string[] Times = ["20240315-14:30:00.123", "20240315-14:30:00", "20240315-14:61:00.000", "20240315-23:59:60.000", "20240315-14:30:00.12", "2024031-14:30:00"];
    private static readonly string[] HandlInsts = ["1", "2", "3", "9", "11"];
    private static readonly string[] OrderCapacities = ["A", "G", "Z", "AA"];
    private static readonly string[] SeqNums = ["7", "1", "0", "2147483647", "2147483648", "-3", "x"];

    [Fact]
    public void RandomLayoutsAndValues_FusedReadAgreesWithTheUsualPath()
    {
        var random = new Random(20261129);
        int fused = 0;
        int qualifyingLayouts = 0;
        for (int i = 0; i < 6_000; i++)
        {
            List<(int Tag, string Value)> fields = RandomLayout(random);
            var reader = new FixMessage();
            var layout = new NewOrderLayout();

            // A clean message of the layout makes it the connection's plan; only then can a message be read guided.
            byte[] clean = Wrap(fields);
            if (!reader.Parse(clean, FixDictionary.Fix44))
            {
                continue;
            }

            if (TryFuse(reader, layout, clean, out _, out _, out _) is bool cleanFused)
            {
                qualifyingLayouts += layout.Qualifies ? 1 : 0;
                bool usualOk = UsualPath(clean, out _, out _) == MappingOutcome.Ok;

                // A qualifying layout's valid orders all take the fused read.
                Assert.Equal(layout.Qualifies && usualOk, cleanFused);
            }

            byte[] mutated = Wrap(Mutate(fields, random));
            bool? result = TryFuse(reader, layout, mutated, out Command command, out int seq, out long sending);
            MappingOutcome usual = UsualPath(mutated, out Command expected, out FixMessage reference);
            if (result == true)
            {
                fused++;
                Assert.Equal(MappingOutcome.Ok, usual);
                Assert.Equal(Bytes(expected), Bytes(command));
                InboundMessages.Header(reference, reference.Validation, SessionMsgType.Application, out InboundMessage header);
                Assert.Equal(header.MsgSeqNum, seq);
                Assert.Equal(header.SendingTimeNanos, sending);
                Assert.False(header.PossDupFlag);
                Assert.Null(header.OrigSendingTimeNanos);
                Assert.Equal(header.SenderCompID.ToArray(), reader.ValueAt(layout.SenderCompIdIndex).ToArray());
                Assert.Equal(header.TargetCompID.ToArray(), reader.ValueAt(layout.TargetCompIdIndex).ToArray());
                Assert.Equal(header.MsgType.ToArray(), reader.ValueAt(layout.MsgTypeIndex).ToArray());
            }
            else if (result == false)
            {
                // The usual path after a refused fused read: the same verdict, and the same mapping, as a fresh parse.
                Assert.Equal(reference.Validation, reader.Validation);
                if (!reader.Validation.IsError)
                {
                    MappingResult again = NewOrderSingleReader.Read(reader, Instruments, OwnerId, ReceiveTime, out Command mapped);
                    Assert.Equal(usual, again.Outcome);
                    Assert.Equal(Bytes(expected), Bytes(mapped));
                }
            }
        }

        // Enough of both outcomes that the comparison means something.
        Assert.True(qualifyingLayouts > 1_000, $"{qualifyingLayouts} qualifying layouts");
        Assert.True(fused > 300, $"{fused} mutated messages read fused");
    }

    [Theory]
    [InlineData("43=Y|122=20240315-14:29:00.000|", "PossDupFlag")]
    [InlineData("97=Y|", "PossResend")]
    [InlineData("18=6|", "an unsupported instruction")]
    [InlineData("423=2|", "PriceType")]
    [InlineData("167=CS|", "SecurityType")]
    [InlineData("48=US0378331005|22=4|", "an instrument qualifier")]
    public void LayoutWithAFieldThatChangesTheOutcome_DoesNotQualify(string extra, string what)
    {
        string body = FixTestMessages.NewOrderBody.Replace("|11=ORD-1|", $"|{extra}11=ORD-1|", StringComparison.Ordinal);

        Assert.False(LayoutOf(body).Qualifies, what);
    }

    [Fact]
    public void LayoutWithoutOrderQty_DoesNotQualify()
    {
        // The dictionary lets OrderQty be absent (the OrderQtyData component); the mapper refuses such an order.
        Assert.False(LayoutOf(FixTestMessages.NewOrderBody.Replace("|38=100|", "|", StringComparison.Ordinal)).Qualifies);
    }

    [Fact]
    public void PlainOrderLayout_Qualifies_AndItsOptionalFieldsMayBeAbsent()
    {
        Assert.True(LayoutOf(FixTestMessages.NewOrderBody).Qualifies);

        NewOrderLayout market = LayoutOf(FixTestMessages.NewOrderBody.Replace("|59=0|", "|", StringComparison.Ordinal).Replace("|40=2|44=143.42|", "|40=1|", StringComparison.Ordinal));
        Assert.True(market.Qualifies);
        Assert.Equal(NewOrderLayout.Absent, market.TimeInForceIndex);
        Assert.Equal(NewOrderLayout.Absent, market.PriceIndex);
    }

    [Fact]
    public void PlanReusedForAnotherLayout_IsNoLongerDescribed()
    {
        var reader = new FixMessage();
        byte[] order = FixTestMessages.Wrap(FixTestMessages.NewOrderBody);
        Assert.True(reader.Parse(order, FixDictionary.Fix44));
        LayoutPlan plan = reader.ParseDeferringGuidedChecks(order, FixDictionary.Fix44)!;
        Assert.NotNull(plan);
        var layout = new NewOrderLayout();
        layout.Build(plan);
        Assert.True(layout.IsFor(plan));

        // The connection's plans are pooled: as many other clean layouts as the pool holds overwrite this one's.
        string[] others = ["|1=ACC-1|", "|58=note|", "|21=1|", "|100=XNAS|"];
        foreach (string extra in others.Take(LayoutPlans.Capacity))
        {
            Assert.True(reader.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody.Replace("|59=0|", "|59=0" + extra, StringComparison.Ordinal)), FixDictionary.Fix44));
        }

        Assert.False(layout.IsFor(plan));
    }

    private static NewOrderLayout LayoutOf(string body)
    {
        var reader = new FixMessage();
        byte[] frame = FixTestMessages.Wrap(body);
        Assert.True(reader.Parse(frame, FixDictionary.Fix44), FixTestMessages.Show(frame));
        LayoutPlan? plan = reader.ParseDeferringGuidedChecks(frame, FixDictionary.Fix44);
        Assert.NotNull(plan);
        var layout = new NewOrderLayout();
        layout.Build(plan);
        return layout;
    }

    /// <summary>The fused read of <paramref name="frame"/> as the gateway runs it; null when the message is not read guided.</summary>
    private static bool? TryFuse(FixMessage reader, NewOrderLayout layout, byte[] frame, out Command command, out int seq, out long sending)
    {
        command = default;
        seq = 0;
        sending = 0;
        LayoutPlan? plan = reader.ParseDeferringGuidedChecks(frame, FixDictionary.Fix44);
        if (plan is null)
        {
            return null;
        }

        if (reader.MsgTypeKind == FixMsgType.NewOrderSingle && layout.Describe(plan) &&
            FusedNewOrderReader.TryRead(reader, layout, Instruments, OwnerId, ReceiveTime, ref command, out seq, out sending))
        {
            reader.AcceptGuided(FixDictionary.Fix44);
            return true;
        }

        reader.CompleteGuided(plan, FixDictionary.Fix44);
        return false;
    }

    /// <summary>Parse and walk in full (no plan), then the mapper: Ok only when both pass.</summary>
    private static MappingOutcome UsualPath(byte[] frame, out Command command, out FixMessage message)
    {
        command = default;
        message = new FixMessage();
        if (!message.Parse(frame, FixDictionary.Fix44))
        {
            return MappingOutcome.SessionReject;
        }

        return NewOrderSingleReader.Read(message, Instruments, OwnerId, ReceiveTime, out command).Outcome;
    }

    private static byte[] Bytes(Command command) => MemoryMarshal.AsBytes(new ReadOnlySpan<Command>(in command)).ToArray();

    private static byte[] Wrap(List<(int Tag, string Value)> fields)
    {
        var body = new StringBuilder();
        foreach ((int tag, string value) in fields)
        {
            body.Append(tag).Append('=').Append(value).Append('|');
        }

        return FixTestMessages.Wrap(body.ToString());
    }

    /// <summary>A NewOrderSingle's fields in a random order and selection, with valid values.</summary>
    private static List<(int Tag, string Value)> RandomLayout(Random random)
    {
        var header = new List<(int, string)> { (49, "CLIENT1"), (56, "VENUE"), (34, "7"), (52, "20240315-14:30:00.123") };
        if (random.Next(10) == 0)
        {
            header.Add((50, "DESK"));
        }

        if (random.Next(20) == 0)
        {
            header.Add((97, "N"));
        }

        if (random.Next(20) == 0)
        {
            header.Add((43, "N"));
        }

        var body = new List<(int, string)>();
        AddUnlessDropped(body, random, 11, ClOrdIdOf(random.Next(1, 33)), 40);
        AddUnlessDropped(body, random, 55, Symbols[random.Next(3)], 40);
        AddUnlessDropped(body, random, 54, Sides[random.Next(2)], 40);
        AddUnlessDropped(body, random, 60, Times[0], 8);
        AddUnlessDropped(body, random, 38, "100", 40);
        AddUnlessDropped(body, random, 40, OrdTypes[random.Next(2)], 40);
        AddUnlessDropped(body, random, 44, "143.42", 6);
        AddUnlessDropped(body, random, 59, TimesInForce[random.Next(4)], 4);
        foreach ((int tag, string value) in new (int, string)[] { (1, "ACC-1"), (21, "1"), (528, "A"), (58, "hello"), (100, "XNAS"), (18, "6"), (423, "2"), (167, "CS"), (110, "50") })
        {
            if (random.Next(tag is 21 or 528 ? 3 : 12) == 0)
            {
                body.Add((tag, value));
            }
        }

        Shuffle(body, random);
        return [(35, "D"), .. header, .. body];
    }

    private static void AddUnlessDropped(List<(int, string)> fields, Random random, int tag, string value, int keepOneIn)
    {
        if (random.Next(keepOneIn) != 0)
        {
            fields.Add((tag, value));
        }
    }

    /// <summary>The same layout with some values replaced, each by a valid or an invalid one.</summary>
    private static List<(int Tag, string Value)> Mutate(List<(int Tag, string Value)> fields, Random random)
    {
        var mutated = new List<(int Tag, string Value)>(fields);
        int changes = random.Next(4);
        for (int c = 0; c < changes; c++)
        {
            int index = random.Next(1, mutated.Count);
            (int tag, string value) = mutated[index];
            mutated[index] = (tag, tag switch
            {
                11 => ClOrdIdOf(random.Next(1, 40)),
                55 => Symbols[random.Next(Symbols.Length)],
                54 => Sides[random.Next(Sides.Length)],
                40 => OrdTypes[random.Next(OrdTypes.Length)],
                59 => TimesInForce[random.Next(TimesInForce.Length)],
                38 => Quantities[random.Next(Quantities.Length)],
                44 => Prices[random.Next(Prices.Length)],
                52 or 60 => Times[random.Next(Times.Length)],
                34 => SeqNums[random.Next(SeqNums.Length)],
                43 or 97 => random.Next(2) == 0 ? "Y" : "N",
                21 => HandlInsts[random.Next(HandlInsts.Length)],
                528 => OrderCapacities[random.Next(OrderCapacities.Length)],
                _ => value,
            });
        }

        return mutated;
    }

    private static string ClOrdIdOf(int length) => string.Create(length, length, static (span, n) =>
    {
        for (int i = 0; i < span.Length; i++)
        {
            span[i] = (char)('A' + ((i * 7) + n) % 26);
        }
    });

    private static void Shuffle(List<(int, string)> list, Random random)
    {
        for (int i = list.Count - 1; i > 0; i--)
        {
            int j = random.Next(i + 1);
            (list[i], list[j]) = (list[j], list[i]);
        }
    }
}
