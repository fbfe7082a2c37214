namespace Exchange.Host.Network;

/// <summary>
/// The venue could not bind its listening address (the port is taken, the address is not this machine's). An
/// operator's mistake rather than a defect: the message names the address and the keys that set it, and the process
/// reports it without a stack trace.
/// </summary>
public sealed class ListenFailedException(string message, Exception inner) : Exception(message, inner);
