namespace Exchange.Fix.Session;

/// <summary>
/// A set of outbound MsgSeqNums kept as ascending, disjoint, non-adjacent ranges. The stores use it for their queued
/// messages: the ones stored while no client was logged on and not written to a client since.
/// </summary>
/// <remarks>
/// The session numbers messages in ascending order, so a run stored while the client is away is one range however
/// long it is: adding the next number extends the last range, and a new range (rarely a larger array) starts only
/// when messages were written live in between. A ResendRequest removes what it delivered, which may split a range.
/// Single-threaded.
/// </remarks>
internal sealed class SeqNumRanges
{
    private SeqNumRange[] _ranges = new SeqNumRange[4];
    private int _count;

    public bool IsEmpty => _count == 0;

    public ReadOnlySpan<SeqNumRange> Ranges => _ranges.AsSpan(0, _count);

    public bool Contains(int seq)
    {
        foreach (SeqNumRange range in Ranges)
        {
            if (seq <= range.Last)
            {
                return seq >= range.First;
            }
        }

        return false;
    }

    public void Add(int seq)
    {
        if (_count != 0)
        {
            ref SeqNumRange last = ref _ranges[_count - 1];
            if (seq == last.Last + 1)
            {
                last = last with { Last = seq };
                return;
            }

            if (seq <= last.Last)
            {
                AddBelowLast(seq);
                return;
            }
        }

        Insert(_count, new SeqNumRange(seq, seq));
    }

    /// <summary>Removes <paramref name="first"/>..<paramref name="last"/>; false when none of them was in the set.</summary>
    public bool Remove(int first, int last)
    {
        bool removed = false;
        int i = 0;
        while (i < _count)
        {
            SeqNumRange range = _ranges[i];
            if (range.Last < first || range.First > last)
            {
                i++;
                continue;
            }

            removed = true;
            bool keepBelow = range.First < first;
            bool keepAbove = range.Last > last;
            if (keepBelow && keepAbove)
            {
                _ranges[i] = range with { Last = first - 1 };
                Insert(i + 1, range with { First = last + 1 });
                return true;
            }

            if (keepBelow)
            {
                _ranges[i++] = range with { Last = first - 1 };
            }
            else if (keepAbove)
            {
                _ranges[i++] = range with { First = last + 1 };
            }
            else
            {
                Array.Copy(_ranges, i + 1, _ranges, i, _count - i - 1);
                _count--;
            }
        }

        return removed;
    }

    public void Clear() => _count = 0;

    /// <summary>Not the session's order (it only adds above the last number); kept correct for any caller.</summary>
    private void AddBelowLast(int seq)
    {
        if (Contains(seq))
        {
            return;
        }

        int at = 0;
        while (_ranges[at].Last < seq)
        {
            at++;
        }

        // _ranges[at] is the first range above seq; seq may join it, the one before it, or both.
        bool joinsBelow = at > 0 && _ranges[at - 1].Last == seq - 1;
        bool joinsAbove = _ranges[at].First == seq + 1;
        if (joinsBelow && joinsAbove)
        {
            _ranges[at - 1] = _ranges[at - 1] with { Last = _ranges[at].Last };
            Array.Copy(_ranges, at + 1, _ranges, at, _count - at - 1);
            _count--;
        }
        else if (joinsBelow)
        {
            _ranges[at - 1] = _ranges[at - 1] with { Last = seq };
        }
        else if (joinsAbove)
        {
            _ranges[at] = _ranges[at] with { First = seq };
        }
        else
        {
            Insert(at, new SeqNumRange(seq, seq));
        }
    }

    private void Insert(int at, SeqNumRange range)
    {
        if (_count == _ranges.Length)
        {
            Array.Resize(ref _ranges, _ranges.Length * 2);
        }

        Array.Copy(_ranges, at, _ranges, at + 1, _count - at);
        _ranges[at] = range;
        _count++;
    }
}
