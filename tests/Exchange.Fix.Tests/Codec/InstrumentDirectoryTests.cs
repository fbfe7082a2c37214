using Exchange.Core.Domain;
using Exchange.Fix.Mapping;
using Xunit;

namespace Exchange.Fix.Tests.Codec;

public class InstrumentDirectoryTests
{
    [Fact]
    public void FindsEverySymbol_AndNothingElse()
    {
        var instruments = Enumerable.Range(0, 300).Select(i => new Instrument(i, $"S{i}", 2, 1, 1, 1, 1000)).ToList();
        var directory = new InstrumentDirectory(instruments);

        foreach (Instrument instrument in instruments)
        {
            Assert.True(directory.TryGet(System.Text.Encoding.ASCII.GetBytes(instrument.Symbol), out Instrument? found));
            Assert.Same(instrument, found);
            Assert.Equal(instrument.Symbol, FixTestMessages.Show(directory.SymbolOf(instrument.Id)));
        }

        Assert.False(directory.TryGet("S300"u8, out _));
        Assert.False(directory.TryGet("s1"u8, out _));
        Assert.False(directory.TryGet(default, out _));
        Assert.False(directory.TryGetById(300, out _));
    }

    /// <summary>
    /// Symbols that agree in the bytes a lookup key is read from (first/last four, first/middle/last) or differ only
    /// in length: each is found as itself, and a one-byte change anywhere is not found.
    /// </summary>
    [Fact]
    public void TellsApartSymbolsThatShareKeyBytes()
    {
        string[] symbols =
        [
            "A", "B", "AB", "BA", "ABC", "AXC", "ABCD", "ABCE", "ABCDE", "ABCDEFGH", "ABCDXFGH", "ABCDEFG",
            "ABCDxxxxWXYZ", "ABCDyyyyWXYZ", "ABCDxxxxxWXYZ", "BRK.A", "BRK.B",
        ];
        var instruments = symbols.Select((symbol, i) => new Instrument(i, symbol, 2, 1, 1, 1, 1000)).ToList();
        var directory = new InstrumentDirectory(instruments);
        var known = new HashSet<string>(symbols);
        foreach (Instrument instrument in instruments)
        {
            byte[] bytes = System.Text.Encoding.ASCII.GetBytes(instrument.Symbol);
            Assert.True(directory.TryGet(bytes, out Instrument? found), instrument.Symbol);
            Assert.Same(instrument, found);
            for (int i = 0; i < bytes.Length; i++)
            {
                byte[] changed = (byte[])bytes.Clone();
                changed[i] = (byte)'q';
                Assert.Equal(known.Contains(System.Text.Encoding.ASCII.GetString(changed)), directory.TryGet(changed, out _));
            }
        }
    }

    [Fact]
    public void TryGetPricing_GivesTheInstrumentsIdAndDecimals_AndNothingForAnUnknownSymbol()
    {
        Instrument[] instruments =
        [
            new(0, "AAPL", 4, 1, 1, 1, 1000), new(1, "MSFT", 2, 1, 1, 1, 1000), new(2, "BRK.B-CLASS-B", 0, 1, 1, 1, 1000),
        ];
        var directory = new InstrumentDirectory(instruments);

        foreach (Instrument instrument in instruments)
        {
            Assert.True(directory.TryGetPricing(System.Text.Encoding.ASCII.GetBytes(instrument.Symbol), out int id, out int decimals));
            Assert.Equal((instrument.Id, instrument.PriceDecimals), (id, decimals));
        }

        Assert.False(directory.TryGetPricing("BRK.B-CLASS-C"u8, out int none, out _));
        Assert.Equal(-1, none);
        Assert.False(directory.TryGetPricing("AAPM"u8, out _, out _));
        Assert.False(directory.TryGetPricing(default, out _, out _));
    }

    [Fact]
    public void RejectsPriceDecimalsTheCodecCannotRead()
    {
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory([new Instrument(0, "A", 19, 1, 1, 1, 10)]));
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory([new Instrument(0, "A", -1, 1, 1, 1, 10)]));
        Assert.Equal(1, new InstrumentDirectory([new Instrument(0, "A", 18, 1, 1, 1, 10)]).Count);
    }

    [Fact]
    public void RejectsSparseIds_AndDuplicateSymbols()
    {
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory([new Instrument(1, "A", 2, 1, 1, 1, 10)]));
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory(
            [new Instrument(0, "A", 2, 1, 1, 1, 10), new Instrument(1, "A", 2, 1, 1, 1, 10)]));
    }
}
