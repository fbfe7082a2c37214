namespace Exchange.Host.Network;

/// <summary>What one non-blocking read of a <see cref="PolledConnection"/> found.</summary>
public enum ReceiveStatus
{
    /// <summary>Nothing arrived since the last read.</summary>
    NothingNew,

    /// <summary>New bytes were appended to <see cref="PolledConnection.Received"/>.</summary>
    Received,

    /// <summary>The peer closed the connection, it failed, or it was closed here.</summary>
    Closed,
}
