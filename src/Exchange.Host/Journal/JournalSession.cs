namespace Exchange.Host.Journal;

/// <summary>The identity of the FIX session behind an owner id, as the journal records it.</summary>
/// <param name="SenderCompId">The venue's CompID in the session.</param>
/// <param name="TargetCompId">The client's CompID.</param>
internal readonly record struct JournalSession(string SenderCompId, string TargetCompId)
{
    public override string ToString() => $"{SenderCompId}->{TargetCompId}";
}
