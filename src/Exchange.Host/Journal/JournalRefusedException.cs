namespace Exchange.Host.Journal;

/// <summary>
/// The journal cannot be used as it is: the venue must not start. The message names the file and what was found; the
/// file is left untouched for the operator.
/// </summary>
internal sealed class JournalRefusedException(JournalRefusal reason, string message, Exception? inner = null) : Exception(message, inner)
{
    public JournalRefusal Reason { get; } = reason;
}
