using System.Text;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The fused validation (<see cref="FixMessage.Parse(ReadOnlySpan{byte}, FixDictionary)"/>, with its per-layout plans
/// and the typed values it keeps) must give exactly what a plain parse plus a full dictionary walk gives: the same
/// verdict, and the same typed reads, for every message. Checked on seeded value mutations that keep a layout (so the
/// plan path and the guided parse run) and on mutations that change it, including the bytes of a tag itself.
/// </summary>
public sealed class ValidationPlanTests
{
    private static readonly string[] Layouts =
    [
        FixTestMessages.NewOrderBody,
        "35=F|49=CLIENT1|56=VENUE|34=9|52=20240315-14:30:00.000|41=A|11=B|55=AAPL|54=1|60=20240315-14:30:00.000|",
        "35=G|49=CLIENT1|56=VENUE|34=9|43=Y|52=20240315-14:30:00.000|122=20240315-14:29:00.000|41=A|11=B|55=AAPL|54=2|60=20240315-14:30:00.000|38=5|40=2|44=1.5|",
        "35=A|49=CLIENT1|56=VENUE|34=1|52=20240315-14:30:00.000|98=0|108=30|141=Y|",
        "35=2|49=CLIENT1|56=VENUE|34=3|52=20240315-14:30:00.000|7=1|16=0|",

        // Heartbeat and Logout share this tag sequence: the guide must tell them apart by MsgType.
        "35=0|49=CLIENT1|56=VENUE|34=3|52=20240315-14:30:00.000|",
        "35=5|49=CLIENT1|56=VENUE|34=3|52=20240315-14:30:00.000|",

        // Repeating groups: mutated NumInGroup values and dropped/repeated members must get the walk's verdict.
        RepeatingGroupTestData.NewOrderWith(RepeatingGroupTestData.NestedParties),
        RepeatingGroupTestData.MarketDataRequestBody,

        // LENGTH/DATA pairs: never guided; mutated counts and tags must still get the walk's verdict.
        DataFieldTestData.NewOrderWithEncodedText("hello"),
        DataFieldTestData.LogonWithRawData("abcd"),
    ];

    /// <summary>Replacement values that exercise every check: bad ints, decimals, chars, enums, timestamps, empties.</summary>
    private static readonly string[] Values =
    [
        "", "0", "7", "-3", "99999999999999999999", "1.5", "143.42", "-0.25", "1.2.3", "x", "Y", "N", "1", "2", "9", "D", "ZZ",
        "20240315-14:30:00.123", "20240315-14:30:01.123", "20240315-14:30:00", "20240315-14:30:00.123456",
        "20240315-24:30:00.123", "20240230-14:30:00.123", "20240315 14:30:00.123", "2024031514:30:00.1234", "AAPL", "ORD-1",
    ];

    public static TheoryData<int> Seeds => new() { 1, 2, 3 };

    [Theory]
    [MemberData(nameof(Seeds))]
    public void FusedValidation_AgreesWithAFullWalk_OnMutatedMessages(int seed)
    {
        var random = new Random(seed);
        var fused = new FixMessage();
        FixDictionary dictionary = FixDictionary.Fix44;
        int planned = 0;
        int guided = 0;
        for (int round = 0; round < 3000; round++)
        {
            string body = Mutate(Layouts[random.Next(Layouts.Length)], random);
            byte[] frame = FixTestMessages.Wrap(body);

            // Reference: a fresh message (no plans) parsed without a dictionary, then walked.
            var reference = new FixMessage();
            reference.Parse(frame);
            FixFieldError expected = dictionary.Validate(reference);

            bool ok = fused.Parse(frame, dictionary);
            Assert.True(expected == fused.Validation, $"'{body}': walk {expected}, fused {fused.Validation}");
            Assert.Equal(!expected.IsError, ok);
            Assert.Equal(expected, dictionary.Validate(fused));
            planned += expected.IsError ? 0 : 1;
            guided += fused.WasGuided ? 1 : 0;
            AssertSameReads(reference, fused, body);
        }

        Assert.True(planned > 100, "too few clean messages to exercise the plans");
        Assert.True(guided > 100, "too few guided parses to exercise the guide");
    }

    [Fact]
    public void Validate_AfterFusedParse_ReturnsTheSameVerdictWithoutAnotherWalk()
    {
        var message = new FixMessage();
        Assert.False(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody.Replace("54=1", "54=Q", StringComparison.Ordinal)), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(FixTags.Side, SessionRejectReason.ValueIsIncorrect), message.Validation);
        Assert.Equal(message.Validation, FixDictionary.Fix44.Validate(message));

        // A plain parse forgets the verdict.
        Assert.True(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody)));
        Assert.Equal(FixFieldError.None, message.Validation);
    }

    [Fact]
    public void APlannedLayout_StillReportsEachBadValue()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody), FixDictionary.Fix44));
        Assert.True(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody), FixDictionary.Fix44));
        Assert.False(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody.Replace("60=20240315-14:30:00.120", "60=20240315-14:61:00.120", StringComparison.Ordinal)), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(FixTags.TransactTime, SessionRejectReason.ValueIsIncorrect), message.Validation);
        Assert.False(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody.Replace("44=143.42", "44=14x.42", StringComparison.Ordinal)), FixDictionary.Fix44));
        Assert.Equal(FixFieldError.Of(FixTags.Price, SessionRejectReason.IncorrectDataFormat), message.Validation);
    }

    [Fact]
    public void APlannedLayout_WithTwoBadValues_ReportsTheFirstInWireOrder()
    {
        // The plan checks char enums before timestamps when every value passes; SendingTime (52) comes before
        // TimeInForce (59) on the wire, so its error is the one to report.
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody), FixDictionary.Fix44));
        LayoutPlan? plan = message.Plans.Find(FixDictionary.Fix44, FixDictionary.Fix44.Find("D"u8)!, message.LayoutHash, message.FieldCount);
        Assert.NotNull(plan);
        Assert.False(plan.HasGeneralChecks); // so a clean order takes the by-kind loops
        Assert.Equal(plan.CheckCount, plan.TimestampEnd);
        string bad = FixTestMessages.NewOrderBody
            .Replace("52=20240315-14:30:00.123", "52=20240315-14:30:0x.123", StringComparison.Ordinal)
            .Replace("59=0", "59=Q", StringComparison.Ordinal);
        Assert.Contains("59=Q|", bad, StringComparison.Ordinal);
        Assert.Contains("52=20240315-14:30:0x.123|", bad, StringComparison.Ordinal);

        Assert.False(message.Parse(FixTestMessages.Wrap(bad), FixDictionary.Fix44));

        Assert.True(message.WasGuided);
        Assert.Equal(FixFieldError.Of(FixTags.SendingTime, SessionRejectReason.IncorrectDataFormat), message.Validation);
    }

    private static string Mutate(string body, Random random)
    {
        string[] fields = body.TrimEnd('|').Split('|');
        int changes = random.Next(0, 3);
        for (int c = 0; c < changes; c++)
        {
            int i = random.Next(fields.Length);
            string tag = fields[i].Split('=')[0];
            switch (random.Next(10))
            {
                case 0:
                    // Layout change: drop a field or repeat one.
                    fields = random.Next(2) == 0 ? [.. fields.Where((_, k) => k != i)] : [.. fields, fields[i]];
                    break;
                case 1:
                    // The tag's own bytes: another tag of the same width, a leading zero, a non-digit, no '='.
                    if (tag.Length == 0)
                    {
                        break;
                    }

                    string value = fields[i].Length > tag.Length ? fields[i][(tag.Length + 1)..] : string.Empty;
                    fields[i] = random.Next(4) switch
                    {
                        0 => (tag.Length == 1 ? "7" : tag[..^1] + (char)('0' + ((tag[^1] - '0' + 1) % 10))) + "=" + value,
                        1 => "0" + tag + "=" + value,
                        2 => tag[..^1] + "x=" + value,
                        _ => tag + value,
                    };
                    break;
                default:
                    fields[i] = tag + "=" + Values[random.Next(Values.Length)];
                    break;
            }
        }

        return string.Join('|', fields) + "|";
    }

    /// <summary>Every typed read of every field gives the same status and value with and without validation's cache.</summary>
    private static void AssertSameReads(FixMessage expected, FixMessage actual, string body)
    {
        Assert.Equal(expected.FieldCount, actual.FieldCount);
        Assert.Equal(expected.Error, actual.Error);
        Assert.Equal(expected.MsgTypeKind, actual.MsgTypeKind);
        Assert.Equal(expected.MsgType.ToArray(), actual.MsgType.ToArray());
        Assert.Equal(expected.LayoutHash, actual.LayoutHash);
        foreach (int absent in (int[])[1, 58, 1023, 1024, 9999])
        {
            Assert.Equal(expected.IndexOf(absent), actual.IndexOf(absent));
        }

        for (int i = 0; i < expected.FieldCount; i++)
        {
            int tag = expected.TagAt(i);
            Assert.Equal(tag, actual.TagAt(i));
            Assert.Equal(expected.IndexOf(tag), actual.IndexOf(tag));
            Assert.Equal(expected.IsRepeatAt(i), actual.IsRepeatAt(i));
            Assert.Equal(expected.FieldStartAt(i), actual.FieldStartAt(i));
            Assert.Equal(expected.ValueAt(i).ToArray(), actual.ValueAt(i).ToArray());
            Assert.Equal((expected.ReadInt(tag, out int a1), a1), (actual.ReadInt(tag, out int b1), b1));
            Assert.Equal((expected.ReadLong(tag, out long a2), a2), (actual.ReadLong(tag, out long b2), b2));
            Assert.Equal((expected.ReadChar(tag, out byte a3), a3), (actual.ReadChar(tag, out byte b3), b3));
            Assert.Equal((expected.ReadBool(tag, out bool a4), a4), (actual.ReadBool(tag, out bool b4), b4));
            Assert.Equal((expected.ReadTimestamp(tag, out long a5), a5), (actual.ReadTimestamp(tag, out long b5), b5));
            foreach (int decimals in (int[])[0, 1, 2, 4, 8, 18])
            {
                (FieldStatus, long) want = (expected.ReadPrice(tag, decimals, out long a6), a6);
                (FieldStatus, long) got = (actual.ReadPrice(tag, decimals, out long b6), b6);
                Assert.True(want == got, $"'{body}' tag {tag} at {decimals} decimals: {want} vs {got}");
            }
        }
    }
}
