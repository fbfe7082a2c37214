using System.Runtime.CompilerServices;

namespace Exchange.Core.MarketData;

/// <summary>
/// The top <see cref="MaxLevels"/> levels per side of one book: a fixed-size value the matcher fills and the market-data
/// store copies, so publishing and reading allocate nothing.
/// </summary>
public struct BookDepth
{
    public const int MaxLevels = 10;

    /// <summary>Which instrument this depth describes.</summary>
    public int InstrumentId;

    /// <summary>Number of valid entries in <see cref="Bids"/>, best first.</summary>
    public int BidCount;

    /// <summary>Number of valid entries in <see cref="Asks"/>, best first.</summary>
    public int AskCount;

    /// <summary>Increases with every publish of this instrument; lets readers skip unchanged books.</summary>
    public long Version;

    /// <summary>Sequence of the command after which this depth was taken.</summary>
    public long CommandSequence;

    public Levels Bids;
    public Levels Asks;

    [InlineArray(MaxLevels)]
    public struct Levels
    {
        private DepthLevel _element0;
    }
}
