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

    [Fact]
    public void RejectsSparseIds_AndDuplicateSymbols()
    {
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory([new Instrument(1, "A", 2, 1, 1, 1, 10)]));
        Assert.Throws<ArgumentException>(() => new InstrumentDirectory(
            [new Instrument(0, "A", 2, 1, 1, 1, 10), new Instrument(1, "A", 2, 1, 1, 1, 10)]));
    }
}
