namespace Exchange.Core.Strategies;

/// <summary>Receives price levels from <see cref="IPriceLevelIndex.VisitFromBest{TVisitor}"/>; a struct, so calls are direct.</summary>
public interface ILevelVisitor
{
    /// <summary>Returns false to stop the walk.</summary>
    bool Visit(long price, int level);
}
