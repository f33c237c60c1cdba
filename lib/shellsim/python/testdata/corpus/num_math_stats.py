import statistics as st
data = [2, 4, 4, 4, 5, 5, 7, 9]
print(st.mean(data), st.median(data), st.mode(data), st.pstdev(data), round(st.stdev(data), 6))
print(st.median([1, 3, 5, 7]), st.median_low([1, 3, 5, 7]), st.median_high([1, 3, 5, 7]))
print(round(st.variance(data), 6), st.pvariance(data), st.fmean([1, 2, 3]))
