namespace Exchange.Hiccups;

/// <summary>One stretch during which a spinning thread did not run: start and length in Stopwatch ticks.</summary>
internal readonly record struct Stall(long StartTicks, long LengthTicks);
