namespace Exchange.Fix.Codec;

/// <summary>Outcome of one <see cref="FixFramer.TryReadFrame"/> call.</summary>
public enum FrameResult : byte
{
    /// <summary>More bytes are needed; nothing was consumed, everything was examined.</summary>
    Incomplete = 0,

    /// <summary>One whole, verified message is available; its bytes are consumed.</summary>
    Complete = 1,

    /// <summary>
    /// The bytes at the start are not a valid message. They are skipped up to the next "8=FIX" (or all but a
    /// possible partial "8=FIX" at the end). FIX session rules: drop it, do not consume a sequence number.
    /// </summary>
    Garbled = 2,
}

/// <summary>Why a frame was <see cref="FrameResult.Garbled"/>.</summary>
public enum GarbledReason : byte
{
    None = 0,

    /// <summary>The buffer does not start with "8=FIX.4.4\x01" (also: garbage between messages).</summary>
    BadBeginString = 1,

    /// <summary>The second field is not "9=" followed by 1..6 digits and SOH.</summary>
    BadBodyLength = 2,

    /// <summary>BodyLength makes the message longer than the framer's maximum message size.</summary>
    MessageTooLarge = 3,

    /// <summary>The third field is not MsgType (35).</summary>
    MsgTypeNotThird = 4,

    /// <summary>BodyLength does not end just before a "10=nnn\x01" trailer.</summary>
    BodyLengthMismatch = 5,

    /// <summary>The CheckSum field is not exactly three digits.</summary>
    BadCheckSumFormat = 6,

    /// <summary>The CheckSum value does not match the bytes.</summary>
    CheckSumMismatch = 7,
}
