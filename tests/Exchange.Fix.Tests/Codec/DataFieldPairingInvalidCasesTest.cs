using System.Xml.Linq;
using Exchange.Fix.Dictionary;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

/// <summary>A dictionary whose DATA fields cannot be paired unambiguously is refused at load, not guessed at.</summary>
public class DataFieldPairingInvalidCasesTest
{
    private const string Fields =
        """
        <fields>
         <field number='58' name='Text' type='STRING' />
         <field number='95' name='RawDataLength' type='LENGTH' />
         <field number='96' name='RawData' type='DATA' />
         <field number='354' name='EncodedTextLen' type='LENGTH' />
         <field number='355' name='EncodedText' type='DATA' />
        </fields>
        """;

    [Theory]
    [InlineData("<field name='Text' /><field name='RawData' />")]                                 // no LENGTH before it
    [InlineData("<field name='RawData' />")]                                                      // nothing before it
    [InlineData("<field name='EncodedTextLen' /><field name='RawData' /><field name='EncodedText' />")] // another field's LENGTH
    [InlineData("<field name='RawDataLength' /><field name='Text' /><field name='RawData' />")]   // LENGTH not immediately before
    public void ADataFieldWithoutItsLengthFieldJustBeforeIt_FailsTheLoad(string body)
    {
        XElement dictionary = Dictionary(body);
        Assert.Throws<InvalidDataException>(() => DataFieldPairing.Derive(dictionary));
    }

    [Fact]
    public void AnUnusedDataFieldWithNoLengthFieldByName_FailsTheLoad()
    {
        XElement dictionary = XElement.Parse(
            "<fix><messages /><fields><field number='5000' name='Blob' type='DATA' /><field number='5001' name='BlobSize' type='LENGTH' /></fields></fix>");
        Assert.Throws<InvalidDataException>(() => DataFieldPairing.Derive(dictionary));
    }

    private static XElement Dictionary(string body) => XElement.Parse(
        $"<fix><header /><trailer /><messages><message name='Test' msgtype='U1' msgcat='app'>{body}</message></messages>{Fields}</fix>");
}
