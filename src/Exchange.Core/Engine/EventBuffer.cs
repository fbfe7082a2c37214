using System.Runtime.CompilerServices;
using Exchange.Core.Events;

namespace Exchange.Core.Engine;

/// <summary>
/// The reusable output of one command. <see cref="MatchingEngine{TOrderList,TLevelIndex}.Process"/> hands out a span
/// over it that is valid until the next command. Also numbers events engine-wide (the ExecID source).
/// </summary>
/// <remarks>Matcher thread only. Doubles when a command yields more events than ever before (a deep sweep).</remarks>
internal sealed class EventBuffer
{
    private EngineEvent[] _events;
    private int _count;
    private long _lastEventId;

    public EventBuffer(int initialCapacity) => _events = new EngineEvent[Math.Max(4, initialCapacity)];

    public void Clear() => _count = 0;

    /// <summary>Events added since the last <see cref="Clear"/>.</summary>
    public int Count => _count;

    /// <summary>The event at <paramref name="index"/> of this command's (below <see cref="Count"/>); valid until the next <see cref="Add"/>.</summary>
    public ref EngineEvent this[int index] => ref _events[index];

    /// <summary>Appends a cleared event carrying the next event id. The ref is valid until the next call.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref EngineEvent Add()
    {
        if (_count == _events.Length)
        {
            Grow();
        }

        ref EngineEvent e = ref _events[_count++];
        e = default;
        e.EventId = ++_lastEventId;
        return ref e;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow() => Array.Resize(ref _events, _events.Length * 2);

    public ReadOnlySpan<EngineEvent> AsSpan() => new(_events, 0, _count);

    /// <summary>The next event id will be above <paramref name="eventId"/> (never lowers the numbering).</summary>
    public void ReserveThrough(long eventId) => _lastEventId = Math.Max(_lastEventId, eventId);

    /// <summary>The id of the last event emitted or reserved.</summary>
    public long LastEventId => _lastEventId;
}
