using System.Globalization;
using System.Net;

namespace Exchange.Host.Configuration;

/// <summary>
/// Checks a bound <see cref="VenueOptions"/> before anything starts. Every problem names its configuration key and,
/// where the value comes from a fixed set, the allowed values, so an operator can fix the file without reading code.
/// Strategy names are checked later against the plugins actually found (see the strategy catalog).
/// </summary>
public static class VenueOptionsValidator
{
    // The allowed names are those of the enums the values are later parsed into, so the two can never disagree.
    public static readonly IReadOnlyList<string> WaitStrategies = Enum.GetNames<Pipeline.WaitStrategyKind>();
    public static readonly IReadOnlyList<string> PipelineModes = Enum.GetNames<Pipeline.PipelineMode>();
    public static readonly IReadOnlyList<string> JournalFsyncPolicies = Enum.GetNames<Journal.FsyncPolicy>();
    public static readonly IReadOnlyList<string> StoreFsyncPolicies = Enum.GetNames<Exchange.Fix.Session.FsyncPolicy>();
    public static readonly IReadOnlyList<string> SelfTradePreventions = Enum.GetNames<Exchange.Core.Domain.SelfTradePrevention>();

    public static IReadOnlyList<string> Validate(VenueOptions options)
    {
        var errors = new List<string>();
        const string root = VenueOptions.SectionName;

        if (!IPAddress.TryParse(options.Listen.Address, out _))
        {
            errors.Add($"{root}:Listen:Address: '{options.Listen.Address}' is not an IP address.");
        }

        Range(errors, $"{root}:Listen:Port", options.Listen.Port, 0, 65535);
        Range(errors, $"{root}:Listen:MaxSendBacklogBytes", options.Listen.MaxSendBacklogBytes, 4096, int.MaxValue);

        PowerOfTwo(errors, $"{root}:Pipeline:InboundRingSize", options.Pipeline.InboundRingSize);
        PowerOfTwo(errors, $"{root}:Pipeline:OutboundRingSize", options.Pipeline.OutboundRingSize);
        OneOf(errors, $"{root}:Pipeline:Mode", options.Pipeline.Mode, PipelineModes);
        OneOf(errors, $"{root}:Pipeline:MatcherWait", options.Pipeline.MatcherWait, WaitStrategies);
        if (IsNamed(options.Pipeline.Mode, nameof(Pipeline.PipelineMode.Inline)) && IsNamed(options.Pipeline.MatcherWait, nameof(Pipeline.WaitStrategyKind.Blocking)))
        {
            errors.Add($"{root}:Pipeline:MatcherWait: '{options.Pipeline.MatcherWait}' is not allowed with {root}:Pipeline:Mode 'Inline' " +
                "(the polling thread idles between passes, it cannot block on every socket). Allowed values: BusySpin, Yielding, Sleeping.");
        }

        OneOf(errors, $"{root}:Pipeline:JournalWait", options.Pipeline.JournalWait, WaitStrategies);
        OneOf(errors, $"{root}:Pipeline:SenderWait", options.Pipeline.SenderWait, WaitStrategies);
        Range(errors, $"{root}:Pipeline:MatcherCpu", options.Pipeline.MatcherCpu, -1, 1023);
        Range(errors, $"{root}:Pipeline:InitialOrderCapacity", options.Pipeline.InitialOrderCapacity, 16, 1 << 26);
        Range(errors, $"{root}:Pipeline:MaxClOrdIdsPerDay", options.Pipeline.MaxClOrdIdsPerDay, 1024, Core.Engine.EngineOptions.LargestMaxClOrdIdsPerDay);

        if (string.IsNullOrWhiteSpace(options.Journal.Path))
        {
            errors.Add($"{root}:Journal:Path: must name a file.");
        }

        OneOf(errors, $"{root}:Journal:Fsync", options.Journal.Fsync, JournalFsyncPolicies);
        Range(errors, $"{root}:Journal:FsyncIntervalMilliseconds", options.Journal.FsyncIntervalMilliseconds, 1, 60_000);
        if (!Journal.SkippedRecords.TryParse(options.Journal.SkipRecords, out _))
        {
            errors.Add($"{root}:Journal:SkipRecords: '{options.Journal.SkipRecords}' is not a list of records to skip. " +
                "Allowed values: empty, or sequence:checksum items as the venue's refusal to replay a record prints them, separated by commas, e.g. 17:1a2b3c4d.");
        }

        Range(errors, $"{root}:MarketData:PublishIntervalMicroseconds", options.MarketData.PublishIntervalMicroseconds, 10, 10_000_000);
        if (!Venue.TradingDayCalendar.TryParseStartsAt(options.TradingDay.StartsAt, out _))
        {
            errors.Add($"{root}:TradingDay:StartsAt: '{options.TradingDay.StartsAt}' is not a UTC time of day. Allowed values: HH:mm or HH:mm:ss, 00:00 to 23:59:59.");
        }

        ValidateSessions(errors, options.Sessions);
        ValidateInstruments(errors, options.Instruments);
        return errors;
    }

    private static void ValidateSessions(List<string> errors, List<SessionOptions> sessions)
    {
        if (sessions.Count == 0)
        {
            errors.Add($"{VenueOptions.SectionName}:Sessions: at least one session is required.");
        }

        var seen = new HashSet<(string, string)>();

        // Two sessions whose store files would have the same name (EXCH->FIRM-A and EXCH-FIRM->A both give
        // EXCH-FIRM-A.session) would write one file; compared ignoring case, as Windows names files.
        var storeFiles = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < sessions.Count; i++)
        {
            string key = $"{VenueOptions.SectionName}:Sessions:{i}";
            SessionOptions s = sessions[i];
            CompId(errors, $"{key}:SenderCompId", s.SenderCompId);
            CompId(errors, $"{key}:TargetCompId", s.TargetCompId);
            Range(errors, $"{key}:HeartBtInt", s.HeartBtInt, 1, 3600);
            OneOf(errors, $"{key}:StoreFsync", s.StoreFsync, StoreFsyncPolicies);
            OneOf(errors, $"{key}:SelfTradePrevention", s.SelfTradePrevention, SelfTradePreventions);
            Range(errors, $"{key}:MemoryStoreMegabytes", s.MemoryStoreMegabytes, 1, 1024);
            Range(errors, $"{key}:MaxApplicationMessagesPerSecond", s.MaxApplicationMessagesPerSecond, 0, 1_000_000);
            if (!seen.Add((s.SenderCompId, s.TargetCompId)))
            {
                errors.Add($"{key}: session {s.SenderCompId}->{s.TargetCompId} is configured twice.");
            }
            else if (!string.IsNullOrEmpty(s.StorePath))
            {
                string file = Path.Combine(s.StorePath, SessionOptions.StoreFileName(s.SenderCompId, s.TargetCompId));
                if (storeFiles.TryGetValue(file, out int other))
                {
                    errors.Add(
                        $"{key}: session {s.SenderCompId}->{s.TargetCompId} would share its store file {file} with session {other} "
                        + $"({sessions[other].SenderCompId}->{sessions[other].TargetCompId}); give one a StorePath of its own.");
                }
                else
                {
                    storeFiles.Add(file, i);
                }
            }
        }
    }

    /// <summary>Longest symbol: what <c>MarketDataEntries.MaxEntryLength</c> leaves room for in each market-data entry.</summary>
    private const int MaxSymbolLength = 32;

    private static void ValidateInstruments(List<string> errors, List<InstrumentOptions> instruments)
    {
        if (instruments.Count == 0)
        {
            errors.Add($"{VenueOptions.SectionName}:Instruments: at least one instrument is required.");
        }

        var symbols = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < instruments.Count; i++)
        {
            string key = $"{VenueOptions.SectionName}:Instruments:{i}";
            InstrumentOptions o = instruments[i];
            if (string.IsNullOrWhiteSpace(o.Symbol) || o.Symbol.Any(c => c is <= ' ' or > '~'))
            {
                errors.Add($"{key}:Symbol: '{o.Symbol}' must be printable ASCII without spaces.");
            }
            else if (o.Symbol.Length > MaxSymbolLength)
            {
                // The market-data encoders size each entry for a symbol of at most this length.
                errors.Add($"{key}:Symbol: '{o.Symbol}' is longer than {MaxSymbolLength} characters.");
            }
            else if (!symbols.Add(o.Symbol))
            {
                errors.Add($"{key}:Symbol: '{o.Symbol}' is configured twice.");
            }

            Range(errors, $"{key}:PriceDecimals", o.PriceDecimals, 0, 9);
            Range(errors, $"{key}:LotSize", o.LotSize, 1, long.MaxValue);
            Range(errors, $"{key}:MaxOrderQuantity", o.MaxOrderQuantity, 1, long.MaxValue);
            if (o.PriceDecimals is < 0 or > 9)
            {
                continue;
            }

            long? tick = PriceUnits(errors, $"{key}:TickSize", o.TickSize, o.PriceDecimals);
            long? min = PriceUnits(errors, $"{key}:MinPrice", o.MinPrice, o.PriceDecimals);
            long? max = PriceUnits(errors, $"{key}:MaxPrice", o.MaxPrice, o.PriceDecimals);
            if (tick is not { } t || min is not { } lo || max is not { } hi)
            {
                continue;
            }

            if (lo > hi)
            {
                errors.Add($"{key}: MinPrice {o.MinPrice} is above MaxPrice {o.MaxPrice}.");
            }
            else if (lo % t != 0 || hi % t != 0)
            {
                errors.Add($"{key}: MinPrice and MaxPrice must be multiples of TickSize {o.TickSize}.");
            }
            else if ((hi - lo) / t > 50_000_000)
            {
                errors.Add($"{key}: the price band holds more than 50,000,000 ticks; narrow MinPrice..MaxPrice or widen TickSize.");
            }
        }
    }

    /// <summary>
    /// Converts a decimal string to price units exactly. Configuration is read once at start, so decimal is fine here;
    /// the matcher itself only ever sees the resulting long.
    /// </summary>
    internal static long? PriceUnits(List<string>? errors, string key, string text, int decimals)
    {
        if (!decimal.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out decimal value) || value <= 0)
        {
            errors?.Add($"{key}: '{text}' is not a positive decimal number.");
            return null;
        }

        // Compared before scaling: decimal's range ends near 7.9e28, and a huge value times 10^decimals overflows it.
        if (value > long.MaxValue)
        {
            errors?.Add($"{key}: '{text}' is too large for a price.");
            return null;
        }

        decimal scaled = value * Pow10(decimals);
        if (scaled != decimal.Truncate(scaled) || scaled > long.MaxValue)
        {
            errors?.Add($"{key}: '{text}' needs more than PriceDecimals={decimals} decimal places.");
            return null;
        }

        return (long)scaled;
    }

    private static decimal Pow10(int n)
    {
        decimal p = 1;
        for (int i = 0; i < n; i++)
        {
            p *= 10;
        }

        return p;
    }

    private static void CompId(List<string> errors, string key, string value)
    {
        if (string.IsNullOrEmpty(value) || value.Length > 64 || value.Any(c => c is <= ' ' or > '~'))
        {
            errors.Add($"{key}: '{value}' must be 1..64 printable ASCII characters without spaces.");
        }
        else if (value.IndexOfAny(NotInFileNames) >= 0)
        {
            // The session's store file is named after its CompIDs: a '/' would put it in another folder, and Windows
            // refuses the others.
            errors.Add($"{key}: '{value}' may not contain any of {string.Join(' ', NotInFileNames)}: the session's store file is named after it.");
        }
    }

    private static readonly char[] NotInFileNames = ['/', '\\', ':', '*', '?', '"', '<', '>', '|'];

    private static void OneOf(List<string> errors, string key, string value, IReadOnlyList<string> allowed)
    {
        if (!allowed.Contains(value, StringComparer.OrdinalIgnoreCase))
        {
            errors.Add($"{key}: '{value}' is not allowed. Allowed values: {string.Join(", ", allowed)}.");
        }
    }

    private static bool IsNamed(string? value, string name) => string.Equals(value?.Trim(), name, StringComparison.OrdinalIgnoreCase);

    private static void Range(List<string> errors, string key, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            errors.Add($"{key}: {value} is out of range [{min}, {max}].");
        }
    }

    /// <summary>
    /// Ring sizes: a power of two from 64 to 2^24 slots. The top bounds the memory taken at start (a few GiB of slots
    /// and their sequence array at 2^24) so a typo such as 2^30 is refused here instead of failing on memory later.
    /// </summary>
    private static void PowerOfTwo(List<string> errors, string key, int value)
    {
        if (value < 64 || value > MaxRingSize || (value & (value - 1)) != 0)
        {
            errors.Add($"{key}: {value} must be a power of two from 64 to {MaxRingSize}.");
        }
    }

    private const int MaxRingSize = 1 << 24;
}
