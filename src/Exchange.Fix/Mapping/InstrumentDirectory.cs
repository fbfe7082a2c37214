using System.Diagnostics.CodeAnalysis;
using System.Text;
using Exchange.Core.Domain;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Instruments by FIX Symbol (55) bytes and by dense id, without creating strings: symbols are kept as ASCII byte
/// arrays in an open-addressing table (FNV-1a hash, linear probing, load factor at most 1/2).
/// Immutable after construction; safe to share between threads.
/// </summary>
public sealed class InstrumentDirectory
{
    private readonly Instrument[] _byId;
    private readonly byte[][] _symbols;
    private readonly int[] _slots;
    private readonly int _mask;

    /// <param name="instruments">Ids must be exactly 0..n-1 (dense, as the engine indexes books) and symbols unique.</param>
    public InstrumentDirectory(IEnumerable<Instrument> instruments)
    {
        ArgumentNullException.ThrowIfNull(instruments);
        _byId = [.. instruments.OrderBy(i => i.Id)];
        _symbols = new byte[_byId.Length][];
        int capacity = 4;
        while (capacity < _byId.Length * 2)
        {
            capacity *= 2;
        }

        _slots = new int[capacity];
        _mask = capacity - 1;
        for (int id = 0; id < _byId.Length; id++)
        {
            Instrument instrument = _byId[id];
            if (instrument.Id != id)
            {
                throw new ArgumentException($"Instrument ids must be dense 0..n-1; found {instrument.Id} at position {id}.", nameof(instruments));
            }

            byte[] symbol = Encoding.ASCII.GetBytes(instrument.Symbol);
            if (symbol.Length == 0 || TryGet(symbol, out _))
            {
                throw new ArgumentException($"Symbol '{instrument.Symbol}' is empty or not unique.", nameof(instruments));
            }

            _symbols[id] = symbol;
            int slot = (int)Hash(symbol) & _mask;
            while (_slots[slot] != 0)
            {
                slot = (slot + 1) & _mask;
            }

            _slots[slot] = id + 1;
        }
    }

    public int Count => _byId.Length;

    public bool TryGet(ReadOnlySpan<byte> symbol, [NotNullWhen(true)] out Instrument? instrument)
    {
        int slot = (int)Hash(symbol) & _mask;
        while (true)
        {
            int entry = _slots[slot];
            if (entry == 0)
            {
                instrument = null;
                return false;
            }

            byte[]? candidate = _symbols[entry - 1];
            if (candidate is not null && symbol.SequenceEqual(candidate))
            {
                instrument = _byId[entry - 1];
                return true;
            }

            slot = (slot + 1) & _mask;
        }
    }

    public bool TryGetById(int instrumentId, [NotNullWhen(true)] out Instrument? instrument)
    {
        instrument = (uint)instrumentId < (uint)_byId.Length ? _byId[instrumentId] : null;
        return instrument is not null;
    }

    /// <summary>The instrument's Symbol as ASCII bytes, for encoders (no string conversion per message).</summary>
    public ReadOnlySpan<byte> SymbolOf(int instrumentId) => _symbols[instrumentId];

    private static uint Hash(ReadOnlySpan<byte> bytes)
    {
        uint hash = 2166136261;
        foreach (byte b in bytes)
        {
            hash = (hash ^ b) * 16777619;
        }

        return hash;
    }
}
