using Exchange.Core.MarketData;

namespace Exchange.Strategies.MarketData;

/// <summary>
/// An immutable copy of one published <see cref="BookDepth"/>. The snapshot stores publish a new one per publish and swap
/// the reference, so a reader that holds a reference always sees one whole publish.
/// </summary>
/// <remarks>Allocation: one object of about 530 bytes per publish; that garbage is the price of this approach.</remarks>
internal sealed class DepthSnapshot
{
    public readonly BookDepth Depth;

    public DepthSnapshot(in BookDepth depth) => Depth = depth;

    /// <summary>A snapshot store's read once it has loaded the reference (with whatever ordering the store needs).</summary>
    public static bool TryCopy(DepthSnapshot? snapshot, ref BookDepth destination)
    {
        if (snapshot is null)
        {
            return false;
        }

        destination = snapshot.Depth;
        return true;
    }
}
