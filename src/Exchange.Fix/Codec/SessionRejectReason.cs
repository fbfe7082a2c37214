namespace Exchange.Fix.Codec;

/// <summary>FIX 4.4 SessionRejectReason (373) values, as sent in a Reject (35=3).</summary>
public enum SessionRejectReason
{
    /// <summary>Tag is not a positive number, or not defined in the dictionary (as QuickFIX reports it).</summary>
    InvalidTagNumber = 0,
    RequiredTagMissing = 1,
    TagNotDefinedForMessageType = 2,
    UndefinedTag = 3,
    TagSpecifiedWithoutValue = 4,
    ValueIsIncorrect = 5,
    IncorrectDataFormat = 6,
    DecryptionProblem = 7,
    SignatureProblem = 8,
    CompIdProblem = 9,
    SendingTimeAccuracyProblem = 10,
    InvalidMsgType = 11,
    XmlValidationError = 12,
    TagAppearsMoreThanOnce = 13,
    TagSpecifiedOutOfRequiredOrder = 14,
    RepeatingGroupFieldsOutOfOrder = 15,
    IncorrectNumInGroupCount = 16,
    NonDataValueIncludesFieldDelimiter = 17,
    Other = 99,
}
