namespace Exchange.Fix.Session;

/// <summary>The outbound MsgSeqNums <see cref="First"/>..<see cref="Last"/>, both included.</summary>
public readonly record struct SeqNumRange(int First, int Last)
{
    public int Count => Last - First + 1;
}
