using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Exchange.Core.Domain;
using Exchange.Fix.Codec;

namespace Exchange.Fix.Mapping;

/// <summary>
/// Instruments by FIX Symbol (55) bytes and by dense id, without creating strings: symbols are kept as ASCII byte
/// arrays in an open-addressing table (linear probing, load factor at most 1/2) keyed by a word read from the symbol's
/// bytes (see <see cref="KeyOf"/>), so a lookup of a typical ticker is a multiply, one slot's load and its compare.
/// Immutable after construction; safe to share between threads.
/// </summary>
public sealed class InstrumentDirectory
{
    private readonly Instrument[] _byId;
    private readonly byte[][] _symbols;
    private readonly Slot[] _slots;
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

        _slots = new Slot[capacity];
        _mask = capacity - 1;
        for (int id = 0; id < _byId.Length; id++)
        {
            Instrument instrument = _byId[id];
            if (instrument.Id != id)
            {
                throw new ArgumentException($"Instrument ids must be dense 0..n-1; found {instrument.Id} at position {id}.", nameof(instruments));
            }

            // The codec reads prices at up to FixPrice.MaxDecimals; more would throw on every order of the instrument.
            if ((uint)instrument.PriceDecimals > FixPrice.MaxDecimals)
            {
                throw new ArgumentException($"Instrument '{instrument.Symbol}' has {instrument.PriceDecimals} price decimals; 0..{FixPrice.MaxDecimals} are supported.", nameof(instruments));
            }

            byte[] symbol = Encoding.ASCII.GetBytes(instrument.Symbol);
            if (symbol.Length == 0 || TryGet(symbol, out _))
            {
                throw new ArgumentException($"Symbol '{instrument.Symbol}' is empty or not unique.", nameof(instruments));
            }

            _symbols[id] = symbol;
            ulong key = KeyOf(symbol);
            int slot = SlotOf(key);
            while (_slots[slot].Entry != 0)
            {
                slot = (slot + 1) & _mask;
            }

            _slots[slot] = new Slot(key, symbol.Length, id + 1, instrument.PriceDecimals);
        }
    }

    public int Count => _byId.Length;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGet(ReadOnlySpan<byte> symbol, [NotNullWhen(true)] out Instrument? instrument)
    {
        int slot = FindSlot(symbol);
        instrument = slot < 0 ? null : _byId[_slots[slot].Entry - 1];
        return instrument is not null;
    }

    /// <summary>
    /// The instrument's id and price decimals by Symbol, from its table slot alone: the order path's lookup, which
    /// needs no <see cref="Instrument"/> object and so follows no reference to one.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetPricing(ReadOnlySpan<byte> symbol, out int instrumentId, out int priceDecimals)
    {
        int slot = FindSlot(symbol);
        if (slot < 0)
        {
            instrumentId = -1;
            priceDecimals = 0;
            return false;
        }

        ref readonly Slot found = ref _slots[slot];
        instrumentId = found.Entry - 1;
        priceDecimals = found.PriceDecimals;
        return true;
    }

    /// <summary>The slot holding <paramref name="symbol"/>, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int FindSlot(ReadOnlySpan<byte> symbol)
    {
        ulong key = KeyOf(symbol);
        int slot = SlotOf(key);
        while (true)
        {
            // Safe: slot is masked to the table's length.
            ref readonly Slot candidate = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), slot);
            if (candidate.Entry == 0)
            {
                return -1;
            }

            // Equal keys and lengths are equal symbols up to 8 bytes; longer ones are compared in full.
            if (candidate.Key == key && candidate.Length == symbol.Length &&
                (symbol.Length <= sizeof(ulong) || symbol.SequenceEqual(_symbols[candidate.Entry - 1])))
            {
                return slot;
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

    /// <summary>The symbol of <paramref name="instrumentId"/>, or <paramref name="unknown"/> when there is no such instrument (-1: every one).</summary>
    public ReadOnlySpan<byte> SymbolOf(int instrumentId, ReadOnlySpan<byte> unknown) =>
        (uint)instrumentId < (uint)_symbols.Length ? _symbols[instrumentId] : unknown;

    /// <summary>
    /// A word that, together with the length, identifies a symbol of up to 8 bytes: for 4..8 bytes its first and last
    /// four (which overlap and so cover every byte), for 1..3 bytes its first, middle and last byte. Longer symbols get
    /// the same word as a hash only.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong KeyOf(ReadOnlySpan<byte> symbol)
    {
        int length = symbol.Length;
        if (length >= 4)
        {
            ulong first = BinaryPrimitives.ReadUInt32LittleEndian(symbol);
            ulong last = BinaryPrimitives.ReadUInt32LittleEndian(symbol[(length - 4)..]);
            return first | (last << 32);
        }

        return length == 0 ? 0 : symbol[0] | ((ulong)symbol[length / 2] << 8) | ((ulong)symbol[length - 1] << 16);
    }

    /// <summary>Fibonacci hashing of the key: the multiply's high bits pick the slot.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int SlotOf(ulong key) => (int)((key * 0x9E3779B97F4A7C15UL) >> 32) & _mask;

    /// <summary>
    /// One table slot: the symbol's key and length beside its entry (id + 1; 0 is empty) and price decimals, so a probe
    /// of a symbol of up to 8 bytes reads one slot and no symbol bytes, and the order path nothing else.
    /// </summary>
    private readonly record struct Slot(ulong Key, int Length, int Entry, int PriceDecimals);
}
