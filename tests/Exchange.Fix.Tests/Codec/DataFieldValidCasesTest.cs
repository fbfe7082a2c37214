using System.Text;
using Exchange.Core.Commands;
using Exchange.Fix.Codec;
using Exchange.Fix.Dictionary;
using Exchange.Fix.Mapping;
using Xunit;
using static Exchange.Fix.Tests.Codec.DataFieldTestData;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// DATA fields are read by the byte count of the LENGTH field just before them, so their values may hold SOH and '='.
/// Checked on the walked, the planned and the plain (dictionary-less) parse alike.
/// </summary>
public class DataFieldValidCasesTest
{
    public static TheoryData<string> ValidMessages => new()
    {
        LogonWithRawData(Tricky),
        LogonWithRawData("x"),
        LogonWithRawData("|"),                                // a value that is one SOH
        LogonWithRawData("||"),
        NewOrderWithEncodedText(Tricky),
        NewOrderWithEncodedText("plain"),
        NewOrderWithHeaderAndTrailerData("s|1", "<a b=\"1\">|</a>", "sig|10=1"),
        FixTestMessages.NewOrderBody + "354=3|355=a|b|58=after|",  // a field after the DATA field

        // Inside a repeating group: EncodedIssuer of the Instrument in NoRelatedSym, then the next instance.
        RepeatingGroupTestData.MarketDataHeader + "262=R1|263=1|264=5|267=1|269=0|146=2|55=AAPL|106=ACME|348=3|349=a|b|55=MSFT|",
    };

    [Theory]
    [MemberData(nameof(ValidMessages))]
    public void DataFields_Pass_WalkedPlannedAndPlain(string body)
    {
        byte[] frame = FixTestMessages.Wrap(body);
        var message = new FixMessage();
        for (int time = 0; time < 3; time++)
        {
            Assert.True(message.Parse(frame, FixDictionary.Fix44), $"{body}: {message.Validation}");
            Assert.False(message.WasGuided);
        }

        var plain = new FixMessage();
        Assert.True(plain.Parse(frame), $"{body}: {plain.Error}");
        Assert.Equal(FixFieldError.None, FixDictionary.Fix44.Validate(plain));
        Assert.Equal(message.FieldCount, plain.FieldCount);
    }

    [Fact]
    public void RawDataWithSohAndEquals_IsOneValueOfTheCountedLength()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(LogonWithRawData(Tricky)), FixDictionary.Fix44), message.Validation.ToString());

        int rawData = message.IndexOf(96);
        Assert.Equal(Tricky.Length, message.ValueAt(rawData).Length);
        Assert.Equal(Tricky, FixTestMessages.Show(message.ValueAt(rawData)));
        Assert.Equal(95, message.TagAt(rawData - 1));
        Assert.Equal(FixTags.ResetSeqNumFlag, message.TagAt(rawData + 1));
        Assert.Equal(FixTags.CheckSum, message.TagAt(message.FieldCount - 1));

        // 8 9 35 49 56 34 52 | 98 108 95 96 141 | 10: the SOHs and tags inside RawData made no fields.
        Assert.Equal(13, message.FieldCount);
        Assert.Equal(-1, message.IndexOf(FixTags.Text));
        Assert.Equal(1, message.IndexOf(FixTags.BodyLength));
    }

    [Fact]
    public void EncodedTextOnANewOrderSingle_MapsToTheSameCommandAsWithout()
    {
        InstrumentDirectory instruments = FixTestMessages.Instruments();
        var plain = new FixMessage();
        var encoded = new FixMessage();
        Assert.True(plain.Parse(FixTestMessages.Wrap(FixTestMessages.NewOrderBody), FixDictionary.Fix44));
        Assert.True(encoded.Parse(FixTestMessages.Wrap(NewOrderWithEncodedText(Tricky)), FixDictionary.Fix44), encoded.Validation.ToString());

        Assert.Equal(Tricky, FixTestMessages.Show(encoded.GetSpan(355)));
        Assert.Equal("hello", Encoding.ASCII.GetString(encoded.GetSpan(FixTags.Text)));
        Assert.Equal(MappingResult.Ok, NewOrderSingleReader.Read(plain, instruments, 3, 99, out Command expected));
        Assert.Equal(MappingResult.Ok, NewOrderSingleReader.Read(encoded, instruments, 3, 99, out Command actual));
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void HeaderAndTrailerDataFields_KeepTheHeaderReadable()
    {
        var message = new FixMessage();
        Assert.True(message.Parse(FixTestMessages.Wrap(NewOrderWithHeaderAndTrailerData("s|34=9", "<x>|</x>", "sig|10=1")), FixDictionary.Fix44), message.Validation.ToString());

        Assert.Equal("s|34=9", FixTestMessages.Show(message.GetSpan(91)));
        Assert.Equal("<x>|</x>", FixTestMessages.Show(message.GetSpan(213)));
        Assert.Equal("sig|10=1", FixTestMessages.Show(message.GetSpan(89)));
        Assert.Equal(FieldStatus.Ok, message.ReadMsgSeqNum(out int seqNum));
        Assert.Equal(7, seqNum);
        Assert.Equal(FixMsgType.NewOrderSingle, message.MsgTypeKind);
        Assert.Equal(89, message.TagAt(message.FieldCount - 2));
    }

    [Fact]
    public void ADataLayoutBetweenGuidedOrders_LeavesTheOrdersVerdictsAlone()
    {
        // An order layout is guided from its second message on; a DATA layout in between takes the full path and the
        // next order is guided again after one full parse.
        var message = new FixMessage();
        byte[] order = FixTestMessages.Wrap(FixTestMessages.NewOrderBody);
        byte[] withData = FixTestMessages.Wrap(NewOrderWithEncodedText("a|b"));
        Assert.True(message.Parse(order, FixDictionary.Fix44));
        Assert.True(message.Parse(order, FixDictionary.Fix44));
        Assert.True(message.WasGuided);

        Assert.True(message.Parse(withData, FixDictionary.Fix44), message.Validation.ToString());
        Assert.False(message.WasGuided);
        Assert.Equal("a|b", FixTestMessages.Show(message.GetSpan(355)));

        Assert.True(message.Parse(order, FixDictionary.Fix44));
        Assert.True(message.Parse(order, FixDictionary.Fix44));
        Assert.True(message.WasGuided);
    }
}
