namespace Exchange.Fix.Tests.Codec;

/// <summary>
/// Messages with LENGTH/DATA pairs for the DATA field tests ('|' is SOH, also inside DATA values, so a value's length
/// in bytes is its string length).
/// </summary>
internal static class DataFieldTestData
{
    /// <summary>A DATA value holding SOH, '=' and what looks like a CheckSum, a BodyLength and a BeginString.</summary>
    public const string Tricky = "ab|58=x|10=000|9=5|8=FIX.4.4|=";

    public const string LogonHeader = "35=A|49=CLIENT1|56=VENUE|34=1|52=20240315-14:30:00.000|";

    /// <summary>Logon with RawDataLength (95) and RawData (96) between HeartBtInt and ResetSeqNumFlag.</summary>
    public static string LogonWithRawData(string data) => LogonHeader + $"98=0|108=30|95={data.Length}|96={data}|141=Y|";

    /// <summary>NewOrderSingle with Text, EncodedTextLen (354) and EncodedText (355) after its other fields.</summary>
    public static string NewOrderWithEncodedText(string data) => FixTestMessages.NewOrderBody + $"58=hello|354={data.Length}|355={data}|";

    /// <summary>
    /// NewOrderSingle carrying every kind of header and trailer DATA field: SecureDataLen/SecureData (90/91) before
    /// MsgSeqNum, XmlDataLen/XmlData (212/213) after SendingTime, SignatureLength/Signature (93/89) before CheckSum.
    /// </summary>
    public static string NewOrderWithHeaderAndTrailerData(string secure, string xml, string signature) =>
        $"35=D|49=CLIENT1|56=VENUE|90={secure.Length}|91={secure}|34=7|52=20240315-14:30:00.123|212={xml.Length}|213={xml}|" +
        $"11=ORD-1|55=AAPL|54=1|60=20240315-14:30:00.120|38=100|40=2|44=143.42|59=0|93={signature.Length}|89={signature}|";
}
