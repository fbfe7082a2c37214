using System.Globalization;
using Exchange.Fix.Tests.Codec;
using Exchange.Fix.Tests.Gateway;
using Xunit;

namespace Exchange.Fix.Tests.Session;

/// <summary>
/// Cases of the FIX Session Layer Test Cases (FIX Trading Community) that no other suite covers, walked against the
/// acceptor, mostly through the gateway (codec, dictionary and session together). Each comment names its case.
/// </summary>
public sealed class SessionTestCaseTests
{
    private static string Time(GatewayHarness h, int offsetSeconds = 0) =>
        DateTime.UnixEpoch.AddTicks(h.Clock.UtcNowNanos / 100).AddSeconds(offsetSeconds).ToString("yyyyMMdd-HH:mm:ss.fff", CultureInfo.InvariantCulture);

    private static string Hdr(GatewayHarness h, string type, int seq) => $"35={type}|49=CLIENT1|56=VENUE|34={seq}|52={Time(h)}|";

    // 14a-14j: field-level problems on an in-sequence message: Reject with the reason, RefTagID, number spent.
    [Theory]
    [InlineData("3000=X|", "0", "3000")]         // 14a undefined tag
    [InlineData("7=1|", "2", "7")]               // 14c tag not defined for this type
    [InlineData("58=|", "4", "58")]              // 14d tag without value
    [InlineData("|54=Z|", "5", "54")]             // 14e value out of range
    [InlineData("|38=abc|", "6", "38")]           // 14f incorrect data format
    [InlineData("97=N|", "14", "97")]            // 14g header field after body fields
    [InlineData("58=a|58=b|", "13", "58")]       // 14h repeated tag
    public void Field_problem_in_new_order_is_rejected_with_reason_and_number_spent(string extra, string reason, string refTag)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        string body = GatewayHarness.NewOrder("ORD-1");
        if (extra.StartsWith('|'))
        {
            string tag = extra[1..extra.IndexOf('=')];
            int at = body.IndexOf(tag + "=", StringComparison.Ordinal);
            int end = body.IndexOf('|', at);
            body = body[..at] + extra[1..^1] + body[end..];
        }
        else
        {
            body += extra;
        }

        h.Send("D", body);

        List<Dictionary<int, string>> sent = h.TakeSent();
        Dictionary<int, string> reject = Assert.Single(sent);
        Assert.Equal("3", reject[35]);
        Assert.Equal("2", reject[45]);
        Assert.Equal(reason, reject[373]);
        Assert.Equal(refTag, reject[371]);
        Assert.Equal("D", reject[372]);
        Assert.Empty(h.Publisher.Commands);
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    [Theory]
    [InlineData("55=AAPL|54=1|60=20260302-09:30:00.000|38=100|40=2|44=1|59=0|", "11")] // 14b required tag missing
    public void Required_tag_missing_is_rejected_with_reason_1(string body, string refTag)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", body);
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal("3", reject[35]);
        Assert.Equal("1", reject[373]);
        Assert.Equal(refTag, reject[371]);
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 2d/2j/2n-2q: garbled frames are ignored and do not consume a number.
    [Theory]
    [InlineData("bodylength")]
    [InlineData("msgtype-not-third")]
    [InlineData("bodylength-not-second")]
    [InlineData("checksum-not-last")]
    public void Garbled_frames_are_ignored_without_consuming_a_number(string kind)
    {
        using var h = new GatewayHarness();
        h.LogOn();
        byte[] bad;
        string order = GatewayHarness.NewOrder("BAD");
        switch (kind)
        {
            case "bodylength":
            {
                byte[] ok = h.Message("D", order, seq: 2);
                string s = FixTestMessages.Show(ok);
                int nine = s.IndexOf("|9=", StringComparison.Ordinal) + 3;
                int end = s.IndexOf('|', nine);
                int len = int.Parse(s[nine..end], CultureInfo.InvariantCulture);
                string body = s[(end + 1)..s.LastIndexOf("10=", StringComparison.Ordinal)];
                string head = $"8=FIX.4.4|9={len - 5}|";
                string msg = head + body;
                byte[] b = FixTestMessages.Raw(msg);
                bad = FixTestMessages.Raw(msg + $"10={FixTestMessages.Checksum(b):D3}|");
                break;
            }

            case "msgtype-not-third":
                bad = FixTestMessages.Wrap($"49=CLIENT1|35=D|56=VENUE|34=2|52={Time(h)}|{order}");
                break;
            case "bodylength-not-second":
            {
                string body = $"35=D|49=CLIENT1|56=VENUE|34=2|52={Time(h)}|{order}";
                byte[] w = FixTestMessages.Wrap(body);
                string s = FixTestMessages.Show(w);
                // swap: 8=FIX.4.4|35=D|9=len|...
                int nine = s.IndexOf("|9=", StringComparison.Ordinal) + 1;
                int end = s.IndexOf('|', nine);
                string nineField = s[nine..(end + 1)];
                string rest = s[(end + 1)..s.LastIndexOf("10=", StringComparison.Ordinal)];
                string first = rest[..(rest.IndexOf('|') + 1)];
                string msg = "8=FIX.4.4|" + first + nineField + rest[first.Length..];
                byte[] b = FixTestMessages.Raw(msg);
                bad = FixTestMessages.Raw(msg + $"10={FixTestMessages.Checksum(b):D3}|");
                break;
            }

            default:
            {
                string body = $"35=D|49=CLIENT1|56=VENUE|34=2|52={Time(h)}|{order}";
                string withSoh = "8=FIX.4.4|9=" + (body.Length + 7) + "|" + body;
                byte[] b = FixTestMessages.Raw(withSoh);
                int cs = FixTestMessages.Checksum(b);
                string msg = withSoh + $"10={cs:D3}|" + "58=x|";
                bad = FixTestMessages.Raw(msg);
                break;
            }
        }

        h.Feed([.. bad, .. h.Message("D", GatewayHarness.NewOrder("GOOD"), seq: 2)]);

        Assert.Empty(h.TakeSent());
        Assert.Equal(0, h.Connection.CloseCount);
        Assert.Equal("GOOD", Assert.Single(h.Publisher.Commands).ClOrdId.ToString());
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 7: Reject received: increment, no reply.
    [Fact]
    public void Reject_received_spends_its_number_and_is_not_answered()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("3", "45=1|373=0|58=x|");
        Assert.Empty(h.TakeSent());
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 11: Sequence reset (reset mode) with NewSeqNo equal to expected: warning only, no reject.
    [Fact]
    public void Reset_mode_equal_to_expected_is_accepted_silently()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(FixTestMessages.Wrap(Hdr(h, "4", 5) + "36=2|"));
        Assert.Empty(h.TakeSent());
        Assert.Equal(2, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 1S a: a valid FIX 4.4 Logon carrying optional Logon fields must be accepted.
    [Theory]
    [InlineData("98=0|108=30|141=N|")]
    [InlineData("98=0|108=30|553=user|554=secret|")]
    [InlineData("98=0|108=30|789=1|")]
    [InlineData("98=0|108=30|383=4096|")]
    [InlineData("98=0|108=30|464=N|")]
    [InlineData("98=0|108=30|384=1|372=D|385=R|")]
    public void Valid_logon_with_optional_fields_is_accepted(string fields)
    {
        using var h = new GatewayHarness();
        h.Send("A", fields);
        List<Dictionary<int, string>> sent = h.TakeSent();
        Assert.Equal("A", Assert.Single(sent)[35]);
        Assert.True(h.Gateway.IsLoggedOn(0));
    }

    // 12/13: TestRequest received while waiting for the Logout reply is answered.
    [Fact]
    public void Test_request_while_logout_sent_is_answered()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Gateway.GetSession(0).Logout("bye"u8);
        h.TakeSent();
        h.Send("1", "112=T1|");
        Dictionary<int, string> hb = Assert.Single(h.TakeSent());
        Assert.Equal("0", hb[35]);
        Assert.Equal("T1", hb[112]);
    }

    // 14 (embedded <SOH> in a non-data field, FIX 4.4 reason 17): Reject 373=17 referencing the field, number spent.
    [Fact]
    public void Soh_inside_a_non_data_value_is_rejected_with_reason_17()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("D", GatewayHarness.NewOrder("ORD-1") + "58=ab|cd|");
        List<Dictionary<int, string>> sent = h.TakeSent();
        Dictionary<int, string> reject = Assert.Single(sent);
        Assert.Equal("3", reject[35]);
        Assert.True(reject.GetValueOrDefault(373) == "17", string.Join("|", reject.Select(kv => $"{kv.Key}={kv.Value}")));
        Assert.Equal(3, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 2a: header fields other than 8/9/35 in any order are valid.
    [Fact]
    public void Header_fields_in_another_order_are_accepted()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(FixTestMessages.Wrap($"35=D|52={Time(h)}|34=2|56=VENUE|49=CLIENT1|" + GatewayHarness.NewOrder("ORD-1")));
        Assert.Empty(h.TakeSent());
        Assert.Single(h.Publisher.Commands);
    }

    // 10: GapFill answering our resend request with PossDup and OrigSendingTime (realistic replay).
    [Fact]
    public void Replay_with_gap_fill_and_possdup_order_fills_the_gap()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Feed(h.Message("D", GatewayHarness.NewOrder("FOUR"), seq: 4));
        h.TakeSent();
        h.Feed(FixTestMessages.Wrap(Hdr(h, "4", 2) + $"43=Y|122={Time(h, -1)}|123=Y|36=3|"));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("THREE"), seq: 3, header: $"43=Y|122={Time(h, -1)}|"));
        h.Feed(h.Message("D", GatewayHarness.NewOrder("FOUR"), seq: 4, header: $"43=Y|122={Time(h, -1)}|"));
        Assert.Empty(h.TakeSent());
        Assert.Equal(["THREE", "FOUR"], h.Publisher.Commands.Select(c => c.ClOrdId.ToString()));
        Assert.Equal(5, h.Gateway.GetSession(0).NextTargetSeqNum);
    }

    // 12: after sending Logout the initiator sends nothing unless asked with a ResendRequest.
    [Fact]
    public void Nothing_but_resends_is_sent_while_waiting_for_the_logout_reply()
    {
        using var h = new SessionHarness();
        h.LogOn(heartBtInt: 1);
        h.Session.Logout("bye"u8);
        h.Sent.Clear();
        h.Clock.Advance(TimeSpan.FromMilliseconds(1500));
        h.Session.Poll();
        h.Clock.Advance(TimeSpan.FromMilliseconds(1000));
        h.Session.Poll();
        Assert.True(h.Sent.Count == 0, string.Join(" // ", h.Sent.Select(m => m.Raw.Replace('\u0001', '|'))));
    }

    // 8: ResendRequest with BeginSeqNo=0 present: value incorrect (5), not missing (1).
    [Fact]
    public void Resend_request_with_beginseqno_zero_is_value_incorrect()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        h.Send("2", "7=0|16=0|");
        Dictionary<int, string> reject = Assert.Single(h.TakeSent());
        Assert.Equal(("3", "7"), (reject[35], reject[371]));
        Assert.Equal("5", reject[373]);
    }

    // 2a: UTCTimestamp without milliseconds is valid FIX 4.4.
    [Fact]
    public void Sending_time_without_milliseconds_is_accepted()
    {
        using var h = new GatewayHarness();
        h.LogOn();
        string t = Time(h)[..17];
        h.Feed(FixTestMessages.Wrap($"35=D|49=CLIENT1|56=VENUE|34=2|52={t}|43=Y|122={t}|" + GatewayHarness.NewOrder("ORD-1")));
        Assert.Empty(h.TakeSent());
        Assert.Single(h.Publisher.Commands);
    }

    // 1S: Logon without milliseconds in SendingTime.
    [Fact]
    public void Logon_sending_time_without_milliseconds_is_accepted()
    {
        using var h = new GatewayHarness();
        h.Feed(FixTestMessages.Wrap($"35=A|49=CLIENT1|56=VENUE|34=1|52={Time(h)[..17]}|98=0|108=30|"));
        Assert.Equal("A", Assert.Single(h.TakeSent())[35]);
    }}
