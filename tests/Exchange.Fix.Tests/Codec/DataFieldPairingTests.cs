using System.Xml.Linq;
using Exchange.Fix.Dictionary;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// The LENGTH → DATA pairs the tokenizer uses come from the dictionary: in FIX44.xml every DATA field is paired, and
/// with the LENGTH field FIX names for it, although the tag numbers do not give it (SignatureLength 93 → Signature 89).
/// </summary>
public class DataFieldPairingTests
{
    [Fact]
    public void Fix44_PairsEveryDataFieldWithItsLengthField()
    {
        // Written out from the FIX 4.4 specification's field list, not from the code under test.
        (int Length, int Data)[] expected =
        [
            (93, 89),   // SignatureLength → Signature (trailer)
            (90, 91),   // SecureDataLen → SecureData (header)
            (95, 96),   // RawDataLength → RawData
            (212, 213), // XmlDataLen → XmlData (header)
            (348, 349), // EncodedIssuerLen → EncodedIssuer
            (350, 351), // EncodedSecurityDescLen → EncodedSecurityDesc
            (352, 353), // EncodedListExecInstLen → EncodedListExecInst
            (354, 355), // EncodedTextLen → EncodedText
            (356, 357), // EncodedSubjectLen → EncodedSubject
            (358, 359), // EncodedHeadlineLen → EncodedHeadline
            (360, 361), // EncodedAllocTextLen → EncodedAllocText
            (362, 363), // EncodedUnderlyingIssuerLen → EncodedUnderlyingIssuer
            (364, 365), // EncodedUnderlyingSecurityDescLen → EncodedUnderlyingSecurityDesc
            (445, 446), // EncodedListStatusTextLen → EncodedListStatusText
            (618, 619), // EncodedLegIssuerLen → EncodedLegIssuer
            (621, 622), // EncodedLegSecurityDescLen → EncodedLegSecurityDesc
        ];

        DataFieldPairs pairs = FixDictionary.Fix44.DataFields;

        Assert.Equal(expected, pairs.Pairs.Select(p => (p.LengthTag, p.DataTag)).OrderBy(p => p.DataTag));
        foreach ((int length, int data) in expected)
        {
            Assert.Equal(data, pairs.DataTagOf(length));
            Assert.Equal(0, pairs.DataTagOf(data));
            Assert.True(pairs.IsMarked(length));
            Assert.True(pairs.IsMarked(data));
        }
    }

    [Theory]
    [InlineData(9)]    // BodyLength: LENGTH, but of the message, framed by the framer
    [InlineData(383)]  // MaxMessageSize: LENGTH, counts no field
    [InlineData(58)]   // Text
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(100_000)]
    public void Fix44_LeavesOtherTagsUnmarked(int tag)
    {
        DataFieldPairs pairs = FixDictionary.Fix44.DataFields;
        Assert.False(pairs.IsMarked(tag));
        Assert.Equal(0, pairs.DataTagOf(tag));
    }

    [Fact]
    public void ADataFieldNoMessageUses_IsPairedByName()
    {
        XElement dictionary = XElement.Parse(
            """
            <fix>
             <header><field name='BodyLength' required='Y' /></header>
             <trailer><field name='CheckSum' required='Y' /></trailer>
             <messages><message name='Heartbeat' msgtype='0' msgcat='admin' /></messages>
             <fields>
              <field number='9' name='BodyLength' type='LENGTH' />
              <field number='10' name='CheckSum' type='STRING' />
              <field number='5001' name='BlobLength' type='LENGTH' />
              <field number='5000' name='Blob' type='DATA' />
             </fields>
            </fix>
            """);

        DataFieldPairs pairs = DataFieldPairing.Derive(dictionary);

        Assert.Equal([new DataFieldPair(5001, 5000)], pairs.Pairs);
    }
}
